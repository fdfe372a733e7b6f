import type { Queryable } from '../db/knex';
import { insertOne } from '../db/owned-rows';
import { keysetParams, keysetResult, type Page, type PageRequest } from '../db/pagination';
import { isUuid } from '../db/uuid';
import { InvalidInput } from '../errors';
import type { WatchPolicy } from './watch-policy';

/** Where a watched repository lives: the organization's own registry, or an external registry it polls. */
export type WatchSource = 'platform' | 'external';

/** One repository of one source: the organization registry's, or an external registry's (its id). */
export interface RepositoryRef {
  source: WatchSource;
  registryId: string | null;
  repository: string;
}

/** What a subscription updates: the workload's image tag, or a chart-based workload's chart version. */
export type WatchKind = 'image' | 'chart';

export interface WatchSubscription {
  id: string;
  workload: string;
  kind: WatchKind;
  source: WatchSource;
  /** The external registry's name (absent for the organization registry). */
  registry?: string;
  repository: string;
  policy: WatchPolicy;
  /** Environments it updates automatically; a discovery for others is only recorded. */
  environments: string[];
  /** Tenants (slugs) it updates; empty: every tenant of the project. */
  tenants: string[];
  createdAt: string;
}

/** A subscription as stored: its workload by id (the projects module owns the workloads table). */
export interface WatchTarget extends Omit<WatchSubscription, 'workload' | 'registry'> {
  registryId: string | null;
  organizationId: string;
  projectId: string;
  workloadId: string;
}

interface Row {
  id: string;
  organization_id: string;
  project_id: string;
  workload_id: string;
  kind: WatchKind;
  source: WatchSource;
  registry_id: string | null;
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
  'kind',
  'source',
  'registry_id',
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
  kind: r.kind,
  source: r.source,
  registryId: r.registry_id,
  repository: r.repository,
  policy: r.policy,
  environments: r.environments,
  tenants: r.tenants,
  createdAt: r.created_at.toISOString(),
});

/** The API's view of a stored subscription, given its workload's name. */
export const toSubscription = (
  { organizationId: _o, projectId: _p, workloadId: _w, registryId: _r, ...rest }: WatchTarget,
  workload: string,
  registry?: string,
): WatchSubscription => ({ ...rest, ...(registry !== undefined ? { registry } : {}), workload });

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
  ref: RepositoryRef,
): Promise<WatchTarget[]> {
  const rows = (await scoped(db, organizationId)
    .where({ source: ref.source, registry_id: ref.registryId, repository: ref.repository })
    .orderBy('id')) as Row[];
  return rows.map(toTarget);
}

/** Every subscription to an external registry, by repository (one poll request serves all of a repository's). */
export async function subscriptionsOfRegistry(
  db: Queryable,
  organizationId: string,
  registryId: string,
): Promise<Map<string, WatchTarget[]>> {
  const rows = (await scoped(db, organizationId).where({ registry_id: registryId }).orderBy('id')) as Row[];
  const byRepository = new Map<string, WatchTarget[]>();
  for (const row of rows)
    byRepository.set(row.repository, [...(byRepository.get(row.repository) ?? []), toTarget(row)]);
  return byRepository;
}

export async function insertSubscription(
  db: Queryable,
  ids: { organizationId: string; projectId: string; workloadId: string },
  input: {
    kind: WatchKind;
    source: WatchSource;
    registryId: string | null;
    repository: string;
    policy: WatchPolicy;
    environments: string[];
    tenants: string[];
  },
): Promise<string> {
  const row = await insertOne<{ id: string }>(
    db('watch_subscriptions')
      .insert({
        organization_id: ids.organizationId,
        project_id: ids.projectId,
        workload_id: ids.workloadId,
        kind: input.kind,
        source: input.source,
        registry_id: input.registryId,
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

/**
 * `pending` until evaluated; `held` while a freeze holds some of its updates (retried until the freeze ends or a newer
 * version supersedes it); `evaluated` once every subscription's outcome is final.
 */
export type DiscoveryStatus = 'pending' | 'held' | 'evaluated';

export interface WatchDiscovery extends RepositoryRef {
  id: string;
  organizationId: string;
  tag: string;
  digest: string;
  foundAt: Date;
  status: DiscoveryStatus;
  outcomes: unknown[];
}

interface DiscoveryRow {
  id: string;
  organization_id: string;
  source: WatchSource;
  registry_id: string | null;
  repository: string;
  tag: string;
  digest: string;
  found_at: Date;
  status: DiscoveryStatus;
  outcomes: unknown[];
}

const toDiscovery = (r: DiscoveryRow): WatchDiscovery => ({
  id: r.id,
  organizationId: r.organization_id,
  source: r.source,
  registryId: r.registry_id,
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

/** A version an external registry's poll found: recorded once per repository, tag and digest (null: already was). */
export async function insertExternalDiscovery(
  db: Queryable,
  organizationId: string,
  registryId: string,
  found: { repository: string; tag: string; digest: string },
): Promise<WatchDiscovery | null> {
  const [row] = (await db('watch_discoveries')
    .insert({ organization_id: organizationId, source: 'external', registry_id: registryId, ...found })
    .onConflict(db.raw(`(registry_id, repository, tag, digest) WHERE source = 'external'`))
    .ignore()
    .returning('*')) as DiscoveryRow[];
  return row ? toDiscovery(row) : null;
}

/** Discoveries a freeze holds: of the organization registry (the reconciler), or of one external registry. */
export async function heldDiscoveries(db: Queryable, registryId: string | null, limit = 100) {
  const q = db('watch_discoveries').where({ status: 'held', registry_id: registryId }).orderBy('found_at').limit(limit);
  return ((await q.select('*')) as DiscoveryRow[]).map(toDiscovery);
}

/**
 * Discoveries not evaluated yet: of one push (`match`), every one of the organization registry older than `before`
 * (the reconciler), or every one of an external registry (its poll evaluates what a crash left).
 */
export async function pendingDiscoveries(
  db: Queryable,
  filter:
    | { organizationId: string; repository: string; tag: string; digest: string }
    | { before: Date }
    | { registryId: string },
  limit = 100,
): Promise<WatchDiscovery[]> {
  const q = db('watch_discoveries').where({ status: 'pending' }).orderBy('found_at').limit(limit);
  if ('before' in filter) void q.where({ source: 'platform' }).where('found_at', '<', filter.before);
  else if ('registryId' in filter) void q.where({ source: 'external', registry_id: filter.registryId });
  else
    void q.where({
      organization_id: filter.organizationId,
      source: 'platform',
      repository: filter.repository,
      tag: filter.tag,
      digest: filter.digest,
    });
  return ((await q.select('*')) as DiscoveryRow[]).map(toDiscovery);
}

/** Records the outcome once per state it leaves (`from`); false when another process changed it first. */
export async function finishDiscovery(
  db: Queryable,
  id: string,
  change: { from: DiscoveryStatus; to: DiscoveryStatus; outcomes: unknown[] },
): Promise<boolean> {
  const n = await db('watch_discoveries')
    .where({ id, status: change.from })
    .update({ status: change.to, outcomes: JSON.stringify(change.outcomes), evaluated_at: db.raw('now()') });
  return n > 0;
}

/** Where a page of discoveries starts after: found_at (UTC, microseconds) and id, as the cursor carries them. */
const FOUND_KEY = `to_char(found_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`;
const CURSOR_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;

/**
 * A page of the discoveries that concern some subscriptions, newest first: those of their repositories still
 * pending, and those evaluated with an outcome for one of them.
 */
export async function discoveriesPage(
  db: Queryable,
  organizationId: string,
  subscriptions: WatchTarget[],
  page: PageRequest,
): Promise<Page<WatchDiscovery>> {
  if (subscriptions.length === 0) return { items: [], nextCursor: null };
  const { after, take } = keysetParams(page);
  if (after && (!CURSOR_KEY.test(after[0]) || !isUuid(after[1]))) throw new InvalidInput('invalid cursor');
  const q = db('watch_discoveries')
    .where('organization_id', organizationId)
    .where((w) => {
      // One condition per repository watched, however many of the subscriptions share it.
      const repositories = new Map(
        subscriptions.map((s) => [`${s.source}\0${s.registryId ?? ''}\0${s.repository}`, s]),
      );
      for (const s of repositories.values()) {
        void w.orWhere((one) => {
          void one.where({ source: s.source, repository: s.repository });
          if (s.registryId === null) void one.whereNull('registry_id');
          else void one.where('registry_id', s.registryId);
        });
      }
    })
    .where((w) => {
      void w
        .where('status', 'pending')
        .orWhereRaw(
          `EXISTS (SELECT 1 FROM jsonb_array_elements(outcomes) o WHERE o->>'subscriptionId' = ANY(?::text[]))`,
          [subscriptions.map((s) => s.id)],
        );
    });
  if (after) {
    void q.whereRaw(`(found_at, id) < ((CAST(? AS timestamp) AT TIME ZONE 'UTC'), CAST(? AS uuid))`, after);
  }
  const rows = (await q
    .orderBy([
      { column: 'found_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(take)
    .select('*', db.raw(`${FOUND_KEY} AS found_key`))) as (DiscoveryRow & { found_key: string })[];
  return keysetResult(rows, page, (r) => [r.found_key, r.id], toDiscovery);
}
