import type { Knex } from 'knex';
import type { Queryable } from '../db/knex';
import { keysetPage, type Page, type PageRequest } from '../db/pagination';
import type { DeployedTargetRow, MatrixFilter } from './deployed-state-repository';

/**
 * The deployments history (issue 47), read from `deployed_target_events`: the matrix as it was at an instant, and what
 * happened to each Application in a window. Every newest-event-at-t lookup is one probe of the index
 * `deployed_target_events_target_kind_at` per Application of the page (LATERAL ... ORDER BY at DESC LIMIT 1).
 */

const SAME_TARGET = `e.project_id = dt.project_id AND e.tenant_id = dt.tenant_id
  AND e.environment = dt.environment AND e.service = dt.service`;

/** The newest event of `kind` at or before the bound instant, per Application row `dt`. */
const newest = (kind: 'commit' | 'report', columns: string) =>
  `LEFT JOIN LATERAL (SELECT ${columns} FROM deployed_target_events e
     WHERE ${SAME_TARGET} AND e.kind = '${kind}' AND e.at <= ?
     ORDER BY e.at DESC, e.id DESC LIMIT 1) AS ${kind === 'commit' ? 'c' : 'r'} ON true`;

/** The version of the newest commit that wrote the Application at or before a position (as versionAt). */
const versionAtPosition = (position: string, alias: string) =>
  `LEFT JOIN LATERAL (SELECT e.version FROM deployed_target_events e
     WHERE ${SAME_TARGET} AND e.kind = 'commit' AND e.position <= ${position}
     ORDER BY e.position DESC LIMIT 1) AS ${alias} ON true`;

const scoped = (db: Queryable, organizationId: string, projectId: string, filter: MatrixFilter) => {
  const query = db({ dt: 'deployed_targets' }).where({
    'dt.organization_id': organizationId,
    'dt.project_id': projectId,
  });
  if (filter.tenant) void query.andWhere('dt.tenant_slug', filter.tenant);
  if (filter.environment) void query.andWhere('dt.environment', filter.environment);
  if (filter.service) void query.andWhere('dt.service', filter.service);
  return query;
};

/**
 * The project's Applications as they were at `at` (same filters, order and pages as matrixPage): desired from the
 * newest commit event at or before `at`, live from the newest report, verified since the newest verification of that
 * desired content when the report then was Synced and Healthy at a revision carrying it. Applications that had no
 * event yet at `at` are left out.
 */
export async function matrixPageAt(
  db: Queryable,
  organizationId: string,
  projectId: string,
  filter: MatrixFilter,
  page: PageRequest,
  at: Date,
): Promise<Page<DeployedTargetRow>> {
  const query = scoped(db, organizationId, projectId, filter)
    .joinRaw(
      newest('commit', 'e.id, e.revision, e.position, e.digest, e.version, e.source_kind, e.source_id, e.actor, e.at'),
      [at],
    )
    .joinRaw(newest('report', 'e.id, e.revision, e.position, e.sync_status, e.health_status, e.reported_at, e.at'), [
      at,
    ])
    .joinRaw(versionAtPosition('r.position', 'lv'))
    .joinRaw(
      `LEFT JOIN LATERAL (SELECT e.at FROM deployed_target_events e
         WHERE ${SAME_TARGET} AND e.kind = 'verified' AND e.revision = c.revision AND e.id > c.id AND e.at <= ?
         ORDER BY e.at DESC, e.id DESC LIMIT 1) AS v ON true`,
      [at],
    )
    .where((w) => void w.whereNotNull('c.id').orWhereNotNull('r.id'))
    .select(
      'dt.organization_id',
      'dt.project_id',
      'dt.tenant_id',
      'dt.tenant_slug',
      'dt.environment',
      'dt.service',
      'dt.target_key',
      { desired_revision: 'c.revision', desired_position: 'c.position', desired_digest: 'c.digest' },
      { desired_version: 'c.version', source_kind: 'c.source_kind', source_id: 'c.source_id', actor: 'c.actor' },
      { desired_at: 'c.at', live_revision: 'r.revision', live_position: 'r.position', live_version: 'lv.version' },
      { sync_status: 'r.sync_status', health_status: 'r.health_status', received_at: 'r.at' },
    )
    .select(
      db.raw('coalesce(r.reported_at, r.at) AS reported_at'),
      db.raw(
        `CASE WHEN r.sync_status = 'Synced' AND r.health_status = 'Healthy' AND r.position >= c.position
           THEN v.at END AS healthy_since`,
      ),
    );
  return keysetPage<DeployedTargetRow, DeployedTargetRow>(
    query,
    ['target_key', 'target_key'],
    page,
    (r) => [r.target_key ?? '', r.target_key ?? ''],
    (r) => r,
  );
}

/** An Application of a changes page, with its state at the window's start. */
export interface ChangedTargetRow {
  tenant_id: string;
  tenant_slug: string;
  environment: string;
  service: string;
  target_key: string;
  base_version: string | null;
  base_revision: string | null;
  base_live_version: string | null;
  base_sync_status: string | null;
  base_health_status: string | null;
}

/** A commit or report event in a window, with the version live at a report's revision. */
export interface WindowEventRow {
  id: string;
  tenant_id: string;
  environment: string;
  service: string;
  kind: 'commit' | 'report';
  revision: string;
  version: string | null;
  live_version: string | null;
  source_kind: string | null;
  source_id: string | null;
  actor: string | null;
  audit_ids: string[] | null;
  sync_status: string | null;
  health_status: string | null;
  reported_at: Date | null;
  at: Date;
}

const windowOf = (query: Knex.QueryBuilder, from: Date, to: Date) =>
  query.whereExists(function inWindow(this: Knex.QueryBuilder) {
    void this.select(this.client.raw('1'))
      .from({ e: 'deployed_target_events' })
      .whereRaw(SAME_TARGET)
      .whereIn('e.kind', ['commit', 'report'])
      .where('e.at', '>', from)
      .where('e.at', '<=', to);
  });

/** The Applications with a commit or a report in (from, to], in matrix order and pages, with their state at `from`. */
export async function changedTargetsPage(
  db: Queryable,
  organizationId: string,
  projectId: string,
  filter: MatrixFilter,
  page: PageRequest,
  window: { from: Date; to: Date },
): Promise<Page<ChangedTargetRow>> {
  const query = windowOf(scoped(db, organizationId, projectId, filter), window.from, window.to)
    .joinRaw(newest('commit', 'e.revision, e.version'), [window.from])
    .joinRaw(newest('report', 'e.position, e.sync_status, e.health_status'), [window.from])
    .joinRaw(versionAtPosition('r.position', 'lv'))
    .select('dt.tenant_id', 'dt.tenant_slug', 'dt.environment', 'dt.service', 'dt.target_key', {
      base_version: 'c.version',
      base_revision: 'c.revision',
      base_live_version: 'lv.version',
      base_sync_status: 'r.sync_status',
      base_health_status: 'r.health_status',
    });
  return keysetPage<ChangedTargetRow, ChangedTargetRow>(
    query,
    ['target_key', 'target_key'],
    page,
    (r) => [r.target_key, r.target_key],
    (r) => r,
  );
}

/**
 * The commit and report events of some Applications in (from, to], oldest first, at most `cap` per Application (the
 * first ones: a caller that meets the cap says the list is truncated).
 */
export async function windowEvents(
  db: Queryable,
  projectId: string,
  targets: { tenant_id: string; environment: string; service: string }[],
  window: { from: Date; to: Date },
  cap: number,
): Promise<WindowEventRow[]> {
  if (targets.length === 0) return [];
  const keys = targets.map((t) => [t.tenant_id, t.environment, t.service]);
  const ranked = db({ e: 'deployed_target_events' })
    .where('e.project_id', projectId)
    .whereIn(['e.tenant_id', 'e.environment', 'e.service'], keys)
    .whereIn('e.kind', ['commit', 'report'])
    .where('e.at', '>', window.from)
    .where('e.at', '<=', window.to)
    .select(
      'e.*',
      db.raw('row_number() OVER (PARTITION BY e.tenant_id, e.environment, e.service ORDER BY e.at, e.id) AS n'),
    );
  const rows = (await db
    .with('w', ranked)
    .from({ dt: 'w' })
    .joinRaw(versionAtPosition('dt.position', 'lv'))
    .where('dt.n', '<=', cap)
    .orderBy([{ column: 'dt.at' }, { column: 'dt.id' }])
    .select(
      'dt.id',
      'dt.tenant_id',
      'dt.environment',
      'dt.service',
      'dt.kind',
      'dt.revision',
      'dt.version',
      'dt.source_kind',
      'dt.source_id',
      'dt.actor',
      'dt.audit_ids',
      'dt.sync_status',
      'dt.health_status',
      'dt.reported_at',
      'dt.at',
      db.raw("CASE WHEN dt.kind = 'report' THEN lv.version END AS live_version"),
    )) as WindowEventRow[];
  return rows;
}
