import type { Queryable } from '../db/knex';
import { keysetPage, type Page, type PageRequest } from '../db/pagination';
import { insertRecordset, type RecordsetColumn } from '../db/recordset-insert';
import type { StatementSink } from '../db/statement-batch';

/** One Application of a project: tenant, environment and service. */
export interface TargetKey {
  projectId: string;
  tenantId: string;
  environment: string;
  service: string;
}

export interface DeployedTargetRow {
  organization_id: string;
  project_id: string;
  tenant_id: string;
  tenant_slug: string;
  environment: string;
  service: string;
  desired_revision: string | null;
  desired_position: string | null;
  desired_digest: string | null;
  desired_version: string | null;
  source_kind: string | null;
  source_id: string | null;
  actor: string | null;
  desired_at: Date | null;
  live_revision: string | null;
  live_position: string | null;
  live_version: string | null;
  sync_status: string | null;
  health_status: string | null;
  reported_at: Date | null;
  received_at: Date | null;
  healthy_since: Date | null;
  target_key?: string;
}

export interface TargetEvent {
  organizationId: string;
  projectId: string;
  tenantId: string;
  environment: string;
  service: string;
  kind: 'commit' | 'report' | 'verified';
  revision: string;
  position: number | null;
  digest?: string | null;
  version?: string | null;
  sourceKind?: string | null;
  sourceId?: string | null;
  actor?: string | null;
  syncStatus?: string | null;
  healthStatus?: string | null;
  /** A report's own timestamp (the controller's clock); `at` is when the platform recorded the event. */
  reportedAt?: Date | null;
  /** A commit event's audit entries: those of the commit that wrote the Application (none: null). */
  auditIds?: string[];
  at: Date;
}

export interface EventRow {
  id: string;
  tenant_id: string;
  environment: string;
  service: string;
  kind: string;
  revision: string;
  position: string | null;
  digest: string | null;
  version: string | null;
  source_kind: string | null;
  source_id: string | null;
  actor: string | null;
  sync_status: string | null;
  health_status: string | null;
  at: Date;
}

/** Positions are bigint: PostgreSQL hands them over as text. */
export const positionNumber = (value: string | number | null): number | null => (value === null ? null : Number(value));

const keyOf = (t: TargetKey) => ({
  project_id: t.projectId,
  tenant_id: t.tenantId,
  environment: t.environment,
  service: t.service,
});

/** A commit's place in the project's order (`deployment_revisions`): its identity. */
export interface RevisionKey {
  organizationId: string;
  projectId: string;
  sha: string;
}

export const REVISION_INSERT = `INSERT INTO deployment_revisions (organization_id, project_id, sha) VALUES (?::uuid, ?::uuid, ?)
  ON CONFLICT (project_id, sha) DO NOTHING`;
export const revisionValues = (r: RevisionKey) => [r.organizationId, r.projectId, r.sha];

/**
 * Records a commit of the project in commit order, in `sink`'s batch (statements run in the order they were added, so
 * positions follow the commits' order); one a retried commit recorded before is left as it is.
 */
export function recordRevision(sink: StatementSink, r: RevisionKey): void {
  sink.add(REVISION_INSERT, revisionValues(r));
}

/** Where a commit stands in the project's commit order; null for a commit the commit path did not record. */
export async function positionOf(db: Queryable, projectId: string, sha: string): Promise<number | null> {
  const row = (await db('deployment_revisions').where({ project_id: projectId, sha }).first('position')) as
    { position: string } | undefined;
  return row ? Number(row.position) : null;
}

export async function findTarget(db: Queryable, t: TargetKey, forUpdate = false): Promise<DeployedTargetRow | null> {
  const q = db('deployed_targets').where(keyOf(t)).first();
  if (forUpdate) void q.forUpdate();
  return ((await q) as DeployedTargetRow | undefined) ?? null;
}

/** Inserts or changes one Application's row. */
export async function saveTarget(
  db: Queryable,
  row: Pick<DeployedTargetRow, 'organization_id' | 'tenant_slug'> & TargetKey,
  changes: Partial<Omit<DeployedTargetRow, 'organization_id' | 'project_id' | 'tenant_id' | 'environment' | 'service'>>,
): Promise<void> {
  await db('deployed_targets')
    .insert({ ...keyOf(row), organization_id: row.organization_id, tenant_slug: row.tenant_slug, ...changes })
    .onConflict(['project_id', 'tenant_id', 'environment', 'service'])
    .merge(Object.keys(changes));
}

const EVENT_COLUMNS: RecordsetColumn[] = [
  ['organization_id', 'uuid'],
  ['project_id', 'uuid'],
  ['tenant_id', 'uuid'],
  ['environment', 'text'],
  ['service', 'text'],
  ['kind', 'text'],
  ['revision', 'text'],
  ['position', 'bigint'],
  ['digest', 'text'],
  ['version', 'text'],
  ['source_kind', 'text'],
  ['source_id', 'text'],
  ['actor', 'text'],
  ['sync_status', 'text'],
  ['health_status', 'text'],
  ['reported_at', 'timestamptz'],
  ['audit_ids', 'text[]'],
  ['at', 'timestamptz'],
];

const eventRow = (e: TargetEvent) => ({
  organization_id: e.organizationId,
  project_id: e.projectId,
  tenant_id: e.tenantId,
  environment: e.environment,
  service: e.service,
  kind: e.kind,
  revision: e.revision,
  position: e.position,
  digest: e.digest ?? null,
  version: e.version ?? null,
  source_kind: e.sourceKind ?? null,
  source_id: e.sourceId ?? null,
  actor: e.actor ?? null,
  sync_status: e.syncStatus ?? null,
  health_status: e.healthStatus ?? null,
  reported_at: e.reportedAt ?? null,
  audit_ids: e.auditIds?.length ? e.auditIds : null,
  at: e.at,
});

/**
 * Appends to the history in one statement; a commit event is recorded once per Application and revision. Answers the
 * events that were new, as `<tenant id>/<environment>/<service>`.
 */
export async function appendEvents(db: Queryable, events: TargetEvent[]): Promise<Set<string>> {
  if (events.length === 0) return new Set();
  const rows = await insertRecordset<{ tenant_id: string; environment: string; service: string }>(
    db,
    'deployed_target_events',
    EVENT_COLUMNS,
    events.map(eventRow),
    `ON CONFLICT (project_id, tenant_id, environment, service, revision) WHERE kind = 'commit' DO NOTHING
     RETURNING tenant_id, environment, service`,
  );
  return new Set(rows.map((r) => `${r.tenant_id}/${r.environment}/${r.service}`));
}

export async function appendEvent(db: Queryable, e: TargetEvent): Promise<boolean> {
  return (await appendEvents(db, [e])).size > 0;
}

/** The version of the newest commit that wrote the Application at or before `position`. */
export async function versionAt(db: Queryable, t: TargetKey, position: number): Promise<string | null> {
  const row = (await db('deployed_target_events')
    .where({ ...keyOf(t), kind: 'commit' })
    .andWhere('position', '<=', position)
    .orderBy('position', 'desc')
    .first('version')) as { version: string | null } | undefined;
  return row?.version ?? null;
}

/** The services of a tenant and environment whose rendered content the commit at `revision` changed. */
export async function changedServices(
  db: Queryable,
  t: Omit<TargetKey, 'service'>,
  revision: string,
): Promise<string[]> {
  const rows = (await db('deployed_target_events')
    .where({ project_id: t.projectId, tenant_id: t.tenantId, environment: t.environment, kind: 'commit', revision })
    .orderBy('service')
    .select('service')) as { service: string }[];
  return rows.map((r) => r.service);
}

/** The Applications of a tenant and environment (all, or some services). */
export async function targetsOf(
  db: Queryable,
  t: Omit<TargetKey, 'service'>,
  services?: string[],
): Promise<DeployedTargetRow[]> {
  const q = db('deployed_targets').where({
    project_id: t.projectId,
    tenant_id: t.tenantId,
    environment: t.environment,
  });
  if (services) void q.whereIn('service', services);
  return (await q.orderBy('service')) as DeployedTargetRow[];
}

/** An Application's desired commit now. */
export type DesiredCommit = Pick<DeployedTargetRow, 'tenant_id' | 'environment' | 'service' | 'desired_revision'>;
/** The first verification of a commit in an Application. */
export interface CommitVerification {
  tenant_id: string;
  environment: string;
  service: string;
  revision: string;
  at: Date;
}

/**
 * What became of some commits in a project's Applications of some services: each Application's desired commit now,
 * and the verifications (Synced and Healthy at the commit's content) of the commits given.
 */
export async function commitsFate(
  db: Queryable,
  projectId: string,
  services: string[],
  revisions: string[],
): Promise<{ desired: DesiredCommit[]; verified: CommitVerification[] }> {
  const desired = (await db('deployed_targets')
    .where({ project_id: projectId })
    .whereIn('service', services)
    .select('tenant_id', 'environment', 'service', 'desired_revision')) as DesiredCommit[];
  const verified = (await db('deployed_target_events')
    .where({ project_id: projectId, kind: 'verified' })
    .whereIn('revision', revisions)
    .whereIn('service', services)
    .groupBy('tenant_id', 'environment', 'service', 'revision')
    .select('tenant_id', 'environment', 'service', 'revision', db.raw('min(at) AS at'))) as CommitVerification[];
  return { desired, verified };
}

/** History of a tenant and environment's Applications, newest first (commits and verifications). */
export async function eventsOf(
  db: Queryable,
  t: Omit<TargetKey, 'service'>,
  kinds: TargetEvent['kind'][],
): Promise<EventRow[]> {
  return (await db('deployed_target_events')
    .where({ project_id: t.projectId, tenant_id: t.tenantId, environment: t.environment })
    .whereIn('kind', kinds)
    .orderBy('id', 'desc')) as EventRow[];
}

export interface MatrixFilter {
  tenant?: string;
  environment?: string;
  service?: string;
}

/** The project's Applications, by tenant, environment and service (keyset pages). */
export async function matrixPage(
  db: Queryable,
  organizationId: string,
  projectId: string,
  filter: MatrixFilter,
  page: PageRequest,
): Promise<Page<DeployedTargetRow>> {
  const query = db('deployed_targets').where({ organization_id: organizationId, project_id: projectId });
  if (filter.tenant) void query.andWhere({ tenant_slug: filter.tenant });
  if (filter.environment) void query.andWhere({ environment: filter.environment });
  if (filter.service) void query.andWhere({ service: filter.service });
  return keysetPage<DeployedTargetRow, DeployedTargetRow>(
    query,
    ['target_key', 'target_key'],
    page,
    (r) => [r.target_key ?? '', r.target_key ?? ''],
    (r) => r,
  );
}

export async function soakSeconds(db: Queryable, projectId: string, environment: string): Promise<number> {
  const row = (await db('deployment_soak_times').where({ project_id: projectId, environment }).first()) as
    { soak_seconds: number } | undefined;
  return row?.soak_seconds ?? 0;
}

export async function setSoakSeconds(
  db: Queryable,
  s: { organizationId: string; projectId: string; environment: string; seconds: number },
): Promise<void> {
  await db('deployment_soak_times')
    .insert({
      organization_id: s.organizationId,
      project_id: s.projectId,
      environment: s.environment,
      soak_seconds: s.seconds,
    })
    .onConflict(['project_id', 'environment'])
    .merge(['soak_seconds']);
}
