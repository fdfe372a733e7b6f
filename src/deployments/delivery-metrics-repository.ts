import type { Queryable } from '../db/knex';
import type { MatrixFilter } from './deployed-state-repository';
import { TENANT_SLUGS_SQL } from '../projects/project-tenant-repository';

/**
 * Delivery metrics (issue 47, docs/deployments.md#delivery-metrics) computed by PostgreSQL from
 * `deployed_target_events`: three aggregate queries (deployments and their failures, lead times, incidents), each
 * answering the whole window, each group, each week and each week of each group at once (GROUPING SETS), so no event
 * row reaches the application.
 */

/** What the figures are grouped by; the SQL expression of each (tenant slugs come from project_tenants). */
export const METRIC_GROUPS = { environment: 'x.environment', tenant: 'pt.slug', service: 'x.service' } as const;
export type MetricGroup = keyof typeof METRIC_GROUPS;

export interface MetricsQuery {
  organizationId: string;
  projectId: string;
  filter: MatrixFilter;
  from: Date;
  to: Date;
  /** A deployment followed within this many seconds by a rollback or a Degraded report of it failed. */
  failureWindowSeconds: number;
  groupBy: MetricGroup;
  /**
   * The releases as a derived table (id, project_id, kind, created_at) for the queries to join: src/releases owns the
   * table and builds it (RELEASE_KINDS_SQL); the module's wiring passes it in, as src/deployments sits below releases.
   */
  releases: string;
}

/** One aggregate row: `key` null for all groups, `week` (its Monday, UTC) null for the whole window. */
export interface GroupedRow {
  key: string | null;
  week: Date | null;
}
export interface DeploymentRow extends GroupedRow {
  deployments: number;
  failed: number;
}
export interface LeadTimeRow extends GroupedRow {
  count: number;
  median: number | null;
  p90: number | null;
}
export interface IncidentRow extends GroupedRow {
  incidents: number;
  restored: number;
  median: number | null;
}

const WEEK = "(date_trunc('week', x.at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')";

/** The project's events in scope (organization, project, tenant, environment, service filters) as alias `e`. */
function scoped(q: MetricsQuery): { sql: string; bindings: Record<string, unknown> } {
  const parts = ['e.organization_id = :org', 'e.project_id = :project'];
  if (q.filter.tenant) {
    parts.push(
      `e.tenant_id = (SELECT t.id FROM ${TENANT_SLUGS_SQL} t WHERE t.project_id = :project AND t.slug = :tenant)`,
    );
  }
  if (q.filter.environment) parts.push('e.environment = :environment');
  if (q.filter.service) parts.push('e.service = :service');
  return {
    sql: parts.join(' AND '),
    bindings: {
      org: q.organizationId,
      project: q.projectId,
      tenant: q.filter.tenant ?? null,
      environment: q.filter.environment ?? null,
      service: q.filter.service ?? null,
      from: q.from,
      to: q.to,
      // Failures are looked for up to failureWindow after the window's last deployment (not after now).
      horizon: new Date(Math.min(Date.now(), q.to.getTime() + q.failureWindowSeconds * 1000)),
      window: `${q.failureWindowSeconds} seconds`,
    },
  };
}

/** The aggregate over rows `x` (with tenant_id, environment, service, at) by group and week, every grouping set. */
const grouped = (q: MetricsQuery, select: string, from: string) => {
  const key = METRIC_GROUPS[q.groupBy];
  return `SELECT ${key} AS key, ${WEEK} AS week, ${select}
    FROM ${from} JOIN ${TENANT_SLUGS_SQL} pt ON pt.id = x.tenant_id
    GROUP BY GROUPING SETS ((), (${key}), (${WEEK}), (${key}, ${WEEK}))`;
};

/** A commit whose release is a rollback (alias `e`, joined as `rb`). */
const rollbackJoin = (q: MetricsQuery) => `LEFT JOIN ${q.releases} rb ON e.kind = 'commit' AND e.source_kind = 'release'
  AND rb.project_id = e.project_id AND rb.kind = 'rollback' AND CAST(rb.id AS text) = e.source_id`;

/**
 * Deployments (commits that wrote an Application's content) in (from, to], and those that failed: the Application's
 * next commit within the failure window is a rollback, or a report within it at a revision carrying the deployment
 * (and not yet the next one) is Degraded.
 */
export async function deploymentFigures(db: Queryable, q: MetricsQuery): Promise<DeploymentRow[]> {
  const s = scoped(q);
  const sql = `WITH ev AS (
      SELECT e.id, e.tenant_id, e.environment, e.service, e.kind, e.position, e.digest, e.health_status, e.at,
        rb.id IS NOT NULL AS rollback
      FROM deployed_target_events e ${rollbackJoin(q)}
      WHERE ${s.sql} AND e.kind IN ('commit', 'report') AND e.at > :from AND e.at <= :horizon
    ), dep AS (
      SELECT c.*, lead(c.at) OVER w AS next_at, lead(c.position) OVER w AS next_position,
        lead(c.rollback) OVER w AS next_rollback
      FROM ev c WHERE c.kind = 'commit'
      WINDOW w AS (PARTITION BY c.tenant_id, c.environment, c.service ORDER BY c.at, c.id)
    ), degraded AS (
      SELECT DISTINCT d.id FROM dep d JOIN ev r ON r.kind = 'report' AND r.health_status = 'Degraded'
        AND r.tenant_id = d.tenant_id AND r.environment = d.environment AND r.service = d.service
        AND r.position >= d.position AND (d.next_position IS NULL OR r.position < d.next_position)
        AND r.at > d.at AND r.at <= d.at + CAST(:window AS interval)
    ), x AS (
      SELECT d.tenant_id, d.environment, d.service, d.at,
        (coalesce(d.next_rollback, false) AND d.next_at <= d.at + CAST(:window AS interval))
          OR d.id IN (SELECT id FROM degraded) AS failed
      FROM dep d WHERE d.at <= :to AND d.digest IS NOT NULL
    )
    ${grouped(q, 'CAST(count(*) AS int) AS deployments, CAST(count(*) FILTER (WHERE x.failed) AS int) AS failed', 'x')}`;
  return ((await db.raw(sql, s.bindings)) as { rows: DeploymentRow[] }).rows;
}

/**
 * Lead times of the changes delivered in (from, to]: each version's first verification in an Application (Synced
 * and Healthy at a revision carrying it), from the version's first record in the project (its first commit, any
 * tenant or environment; for a release, when the release was requested). Verifications are stamped by the
 * controller in whole seconds, so two of one version in the same second are ordered by id (a rollback to the version
 * verified a second before is not a new change).
 */
export async function leadTimeFigures(db: Queryable, q: MetricsQuery): Promise<LeadTimeRow[]> {
  const s = scoped(q);
  const sql = `WITH x AS (
      SELECT e.tenant_id, e.environment, e.service, e.at,
        CAST(greatest(0, extract(epoch FROM e.at - least(f.at, rel.created_at))) AS float8) AS seconds
      FROM deployed_target_events e
      JOIN LATERAL (SELECT f.at, f.source_kind, f.source_id FROM deployed_target_events f
        WHERE f.project_id = e.project_id AND f.kind = 'commit' AND f.service = e.service AND f.version = e.version
        ORDER BY f.at, f.id LIMIT 1) f ON true
      LEFT JOIN ${q.releases} rel ON f.source_kind = 'release' AND rel.project_id = e.project_id
        AND CAST(rel.id AS text) = f.source_id
      WHERE ${s.sql} AND e.kind = 'verified' AND e.version IS NOT NULL AND e.at > :from AND e.at <= :to
        AND NOT EXISTS (SELECT 1 FROM deployed_target_events p WHERE p.project_id = e.project_id
          AND p.kind = 'verified' AND p.tenant_id = e.tenant_id AND p.environment = e.environment
          AND p.service = e.service AND p.version = e.version AND p.at <= e.at
          AND (p.at < e.at OR p.id < e.id))
    )
    ${grouped(
      q,
      `CAST(count(*) AS int) AS count, percentile_cont(0.5) WITHIN GROUP (ORDER BY x.seconds) AS median,
       percentile_cont(0.9) WITHIN GROUP (ORDER BY x.seconds) AS p90`,
      'x',
    )}`;
  return ((await db.raw(sql, s.bindings)) as { rows: LeadTimeRow[] }).rows;
}

/**
 * Incidents that began in (from, to]: an Application's Degraded report or rollback commit, until its desired content
 * is verified again (signals before the same verification are one incident, from the first). The verification that
 * ends it is the next one recorded (by id: its `at` is the controller's stamp, which may precede by a fraction of a
 * second the platform's stamp of the signal). Time to restore runs from the first signal to that verification's
 * instant; an incident not restored yet has none.
 */
export async function incidentFigures(db: Queryable, q: MetricsQuery): Promise<IncidentRow[]> {
  const s = scoped(q);
  const sql = `WITH sig AS (
      SELECT e.id, e.project_id, e.tenant_id, e.environment, e.service, e.at
      FROM deployed_target_events e ${rollbackJoin(q)}
      WHERE ${s.sql} AND e.at > :from AND e.at <= :to
        AND ((e.kind = 'report' AND e.health_status = 'Degraded') OR rb.id IS NOT NULL)
    ), x AS (
      SELECT s.tenant_id, s.environment, s.service, min(s.at) AS at, v.at AS restored_at
      FROM sig s LEFT JOIN LATERAL (SELECT v.id, v.at FROM deployed_target_events v
        WHERE v.project_id = s.project_id AND v.tenant_id = s.tenant_id AND v.environment = s.environment
          AND v.service = s.service AND v.kind = 'verified' AND v.id > s.id
        ORDER BY v.id LIMIT 1) v ON true
      GROUP BY s.tenant_id, s.environment, s.service, v.id, v.at
    )
    ${grouped(
      q,
      `CAST(count(*) AS int) AS incidents, CAST(count(x.restored_at) AS int) AS restored,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY CAST(greatest(0, extract(epoch FROM x.restored_at - x.at)) AS float8)) AS median`,
      'x',
    )}`;
  return ((await db.raw(sql, s.bindings)) as { rows: IncidentRow[] }).rows;
}
