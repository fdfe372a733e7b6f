import type { Queryable } from '../db/knex';
import { insertOne } from '../db/owned-rows';
import type { WatchPolicy } from './watch-policy';

/** Where a watched repository lives: only the organization's own registry so far (external ones are issue 49, later). */
export type WatchSource = 'platform';

export interface WatchSubscription {
  id: string;
  workload: string;
  source: WatchSource;
  repository: string;
  policy: WatchPolicy;
  /** Environments it updates automatically; a discovery for others is only recorded. */
  environments: string[];
  /** Tenants (slugs) it updates; empty: every tenant of the project. */
  tenants: string[];
  createdAt: string;
}

/** A subscription as stored: its workload by id (the projects module owns the workloads table). */
export interface WatchTarget extends Omit<WatchSubscription, 'workload'> {
  organizationId: string;
  projectId: string;
  workloadId: string;
}

interface Row {
  id: string;
  organization_id: string;
  project_id: string;
  workload_id: string;
  source: WatchSource;
  repository: string;
  policy: WatchPolicy;
  environments: string[];
  tenants: string[];
  created_at: Date;
}

const COLUMNS = [
  'id',
  'organization_id',
  'project_id',
  'workload_id',
  'source',
  'repository',
  'policy',
  'environments',
  'tenants',
  'created_at',
];

const toTarget = (r: Row): WatchTarget => ({
  id: r.id,
  organizationId: r.organization_id,
  projectId: r.project_id,
  workloadId: r.workload_id,
  source: r.source,
  repository: r.repository,
  policy: r.policy,
  environments: r.environments,
  tenants: r.tenants,
  createdAt: r.created_at.toISOString(),
});

/** The API's view of a stored subscription, given its workload's name. */
export const toSubscription = (
  { organizationId: _o, projectId: _p, workloadId: _w, ...rest }: WatchTarget,
  workload: string,
): WatchSubscription => ({ ...rest, workload });

const scoped = (db: Queryable, organizationId: string) =>
  db('watch_subscriptions').where('organization_id', organizationId).select(COLUMNS);

export async function listSubscriptions(db: Queryable, organizationId: string, projectId: string) {
  const rows = (await scoped(db, organizationId)
    .where('project_id', projectId)
    .orderBy([{ column: 'created_at' }, { column: 'id' }])) as Row[];
  return rows.map(toTarget);
}

export async function findSubscription(db: Queryable, organizationId: string, projectId: string, id: string) {
  const row = (await scoped(db, organizationId).where({ project_id: projectId, id }).first()) as Row | undefined;
  return row ? toTarget(row) : null;
}

/** The subscriptions of an organization that watch one repository of a source. */
export async function subscriptionsWatching(
  db: Queryable,
  organizationId: string,
  source: WatchSource,
  repository: string,
): Promise<WatchTarget[]> {
  const rows = (await scoped(db, organizationId).where({ source, repository }).orderBy('id')) as Row[];
  return rows.map(toTarget);
}

export async function insertSubscription(
  db: Queryable,
  ids: { organizationId: string; projectId: string; workloadId: string },
  input: { repository: string; policy: WatchPolicy; environments: string[]; tenants: string[] },
): Promise<string> {
  const row = await insertOne<{ id: string }>(
    db('watch_subscriptions')
      .insert({
        organization_id: ids.organizationId,
        project_id: ids.projectId,
        workload_id: ids.workloadId,
        source: 'platform',
        repository: input.repository,
        policy: JSON.stringify(input.policy),
        environments: input.environments,
        tenants: input.tenants,
      })
      .returning(['id']),
    'the workload already watches this repository',
    'workload not found',
  );
  return row.id;
}

export async function deleteSubscription(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await db('watch_subscriptions').where({ organization_id: organizationId, id }).delete()) > 0;
}

export interface WatchDiscovery {
  id: string;
  organizationId: string;
  source: WatchSource;
  repository: string;
  tag: string;
  digest: string;
  foundAt: Date;
  status: 'pending' | 'evaluated';
  outcomes: unknown[];
}

interface DiscoveryRow {
  id: string;
  organization_id: string;
  source: WatchSource;
  repository: string;
  tag: string;
  digest: string;
  found_at: Date;
  status: 'pending' | 'evaluated';
  outcomes: unknown[];
}

const toDiscovery = (r: DiscoveryRow): WatchDiscovery => ({
  id: r.id,
  organizationId: r.organization_id,
  source: r.source,
  repository: r.repository,
  tag: r.tag,
  digest: r.digest,
  foundAt: r.found_at,
  status: r.status,
  outcomes: r.outcomes,
});

export async function insertDiscovery(
  db: Queryable,
  organizationId: string,
  found: { repository: string; tag: string; digest: string },
): Promise<string> {
  const [row] = (await db('watch_discoveries')
    .insert({ organization_id: organizationId, source: 'platform', ...found })
    .returning(['id'])) as { id: string }[];
  return row!.id;
}

/** Discoveries not evaluated yet: of one push (`match`), or every one older than `before` (the reconciler). */
export async function pendingDiscoveries(
  db: Queryable,
  filter: { organizationId: string; repository: string; tag: string; digest: string } | { before: Date },
  limit = 100,
): Promise<WatchDiscovery[]> {
  const q = db('watch_discoveries').where({ status: 'pending' }).orderBy('found_at').limit(limit);
  if ('before' in filter) void q.where('found_at', '<', filter.before);
  else
    void q.where({
      organization_id: filter.organizationId,
      repository: filter.repository,
      tag: filter.tag,
      digest: filter.digest,
    });
  return ((await q.select('*')) as DiscoveryRow[]).map(toDiscovery);
}

/** Records the outcome once; false when another process finished it first. */
export async function finishDiscovery(db: Queryable, id: string, outcomes: unknown[]): Promise<boolean> {
  const n = await db('watch_discoveries')
    .where({ id, status: 'pending' })
    .update({ status: 'evaluated', outcomes: JSON.stringify(outcomes), evaluated_at: db.raw('now()') });
  return n > 0;
}

export async function listDiscoveries(db: Queryable, organizationId: string, repositories: string[], limit: number) {
  const rows = (await db('watch_discoveries')
    .where({ organization_id: organizationId, source: 'platform' })
    .whereIn('repository', repositories)
    .orderBy('found_at', 'desc')
    .limit(limit)
    .select('*')) as DiscoveryRow[];
  return rows.map(toDiscovery);
}
