import { recordsetOf, type RecordsetColumn } from '../db/recordset-insert';
import type { StatementSink } from '../db/statement-batch';
import { recordRevision, REVISION_INSERT, revisionValues, type RevisionKey } from './deployed-state-repository';

/** What a commit sets of each Application it changed (the desired columns of `deployed_targets`). */
const DESIRED_SET = [
  'desired_revision',
  'desired_position',
  'desired_digest',
  'desired_version',
  'source_kind',
  'source_id',
  'actor',
  'desired_at',
  'healthy_since',
];

/** What every Application of one commit shares: the commit, what made it, its audit entries and when. */
export interface CommitEventSource {
  sourceKind: string | null;
  sourceId: string | null;
  actor: string | null;
  /** The audit entries of the commit that wrote the Applications (none: null). */
  auditIds: string[];
  at: Date;
}

/** One Application a commit changed: its own columns of the commit event and desired state. */
export interface CommittedApplication {
  tenantId: string;
  tenantSlug: string;
  environment: string;
  service: string;
  digest: string | null;
  version: string | null;
}

const APPLICATION_COLUMNS: RecordsetColumn[] = [
  ['tenant_id', 'uuid'],
  ['tenant_slug', 'text'],
  ['environment', 'text'],
  ['service', 'text'],
  ['digest', 'text'],
  ['version', 'text'],
];

/** An array of uuids (or null for none) as the text PostgreSQL reads as a `text[]`. */
const uuidArray = (ids: string[]) => (ids.length > 0 ? `{${ids.join(',')}}` : null);

/**
 * One statement in `sink`'s batch (issue 46: three round trips before): the commit's place in the project's order (its
 * row, or the one a retried commit recorded: the UNION's second branch reads the snapshot from before the insert; a
 * row another transaction commits meanwhile is ruled out by the commit path's repository lock), its commit events at
 * that position (each Application and revision once), and the desired state of the Applications whose event was new
 * (inserting the rows that do not exist yet); a desired change ends the previous verification (`healthy_since`). The
 * columns the Applications share travel once, beside a recordset of their own columns (a generate's 1,000 rows
 * were 700 KB of JSON repeating them).
 */
export function recordCommitEvents(
  sink: StatementSink,
  revision: RevisionKey,
  source: CommitEventSource,
  applications: CommittedApplication[],
): void {
  if (applications.length === 0) return recordRevision(sink, revision);
  const sql = `WITH inserted AS (${REVISION_INSERT} RETURNING position),
    place AS (
      SELECT position FROM inserted
      UNION ALL SELECT position FROM deployment_revisions WHERE project_id = ?::uuid AND sha = ?
      LIMIT 1
    ),
    c AS (
      SELECT ?::uuid AS organization_id, ?::uuid AS project_id, ?::text AS revision, ?::text AS source_kind,
             ?::text AS source_id, ?::text AS actor, ?::text[] AS audit_ids, ?::timestamptz AS at
    ),
    r AS (SELECT * FROM ${recordsetOf(APPLICATION_COLUMNS, 'v')}),
    fresh AS (
      INSERT INTO deployed_target_events (organization_id, project_id, tenant_id, environment, service, kind, revision,
                                          position, digest, version, source_kind, source_id, actor, audit_ids, at)
      SELECT c.organization_id, c.project_id, r.tenant_id, r.environment, r.service, 'commit', c.revision,
             place.position, r.digest, r.version, c.source_kind, c.source_id, c.actor, c.audit_ids, c.at
        FROM r CROSS JOIN c CROSS JOIN place
      ON CONFLICT (project_id, tenant_id, environment, service, revision) WHERE kind = 'commit' DO NOTHING
      RETURNING tenant_id, environment, service
    )
    INSERT INTO deployed_targets (organization_id, tenant_slug, project_id, tenant_id, environment, service,
                                  ${DESIRED_SET.join(', ')})
    SELECT c.organization_id, r.tenant_slug, c.project_id, r.tenant_id, r.environment, r.service,
           c.revision, place.position, r.digest, r.version, c.source_kind, c.source_id, c.actor, c.at, NULL
      FROM r JOIN fresh USING (tenant_id, environment, service) CROSS JOIN c CROSS JOIN place
    ON CONFLICT (project_id, tenant_id, environment, service)
    DO UPDATE SET ${DESIRED_SET.map((col) => `"${col}" = EXCLUDED."${col}"`).join(', ')}`;
  const rows = applications.map((a) => ({
    tenant_id: a.tenantId,
    tenant_slug: a.tenantSlug,
    environment: a.environment,
    service: a.service,
    digest: a.digest,
    version: a.version,
  }));
  sink.add(sql, [
    ...revisionValues(revision),
    revision.projectId,
    revision.sha,
    revision.organizationId,
    revision.projectId,
    revision.sha,
    source.sourceKind,
    source.sourceId,
    source.actor,
    uuidArray(source.auditIds),
    source.at.toISOString(),
    JSON.stringify(rows),
  ]);
}
