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

/** A subscription with the ids the discovery path needs. */
export interface WatchTarget extends WatchSubscription {
  organizationId: string;
  projectId: string;
}

interface Row {
  id: string;
  organization_id: string;
  project_id: string;
  workload: string;
  source: WatchSource;
  repository: string;
  policy: WatchPolicy;
  environments: string[];
  tenants: string[];
  created_at: Date;
}

const COLUMNS = [
  's.id',
  's.organization_id',
  's.project_id',
  'w.name as workload',
  's.source',
  's.repository',
  's.policy',
  's.environments',
  's.tenants',
  's.created_at',
];

const toTarget = (r: Row): WatchTarget => ({
  id: r.id,
  organizationId: r.organization_id,
  projectId: r.project_id,
  workload: r.workload,
  source: r.source,
  repository: r.repository,
  policy: r.policy,
  environments: r.environments,
  tenants: r.tenants,
  createdAt: r.created_at.toISOString(),
});

export const toSubscription = ({ organizationId: _o, projectId: _p, ...rest }: WatchTarget): WatchSubscription => rest;

const scoped = (db: Queryable, organizationId: string) =>
  db('watch_subscriptions as s')
    .join('workloads as w', 'w.id', 's.workload_id')
    .where('s.organization_id', organizationId)
    .select(COLUMNS);

export async function listSubscriptions(db: Queryable, organizationId: string, projectId: string) {
  const rows = (await scoped(db, organizationId)
    .where('s.project_id', projectId)
    .orderBy([{ column: 'w.name' }, { column: 's.created_at' }, { column: 's.id' }])) as Row[];
  return rows.map(toTarget);
}

export async function findSubscription(db: Queryable, organizationId: string, projectId: string, id: string) {
  const row = (await scoped(db, organizationId).where({ 's.project_id': projectId, 's.id': id }).first()) as
    | Row
    | undefined;
  return row ? toTarget(row) : null;
}

/** The subscriptions of an organization that watch one repository of a source. */
export async function subscriptionsWatching(
  db: Queryable,
  organizationId: string,
  source: WatchSource,
  repository: string,
): Promise<WatchTarget[]> {
  const rows = (await scoped(db, organizationId)
    .where({ 's.source': source, 's.repository': repository })
    .orderBy('s.id')) as Row[];
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
