import type { AuditService } from '../audit/audit-service';
import type { Db, Tx } from '../db/knex';
import { DOMAIN_EVENT, recordDomainEvent } from '../events/domain-event-repository';
import { orgEntry } from '../iam/caller';
import { systemCaller } from '../iam/system-caller';
import type { Logger } from '../logging/logger';
import { listWorkloads } from '../projects/workload-repository';
import type { ManifestHook, RegistryService } from '../registry/registry-service';
import type { PlatformCreated } from './platform-created';
import type { ImageUpdateService } from '../webhooks/image-update-service';
import { choose, type CandidateTag } from './watch-policy';
import {
  finishDiscovery,
  heldDiscoveries,
  insertDiscovery,
  pendingDiscoveries,
  subscriptionsWatching,
  type WatchDiscovery,
  type WatchKind,
  type WatchTarget,
} from './watch-repository';

/** What a chosen tag writes: a chart's OCI tag carries its version's `+` (build metadata) as `_`, as helm pushes it. */
const valueOf = (kind: WatchKind, reference: string) => (kind === 'chart' ? reference.replace(/_/g, '+') : reference);

export const WATCH_SUBSYSTEM = 'watch';

/** What became of one subscription for one discovery (kept on the discovery, shown per workload). */
export interface DiscoveryOutcome {
  subscriptionId: string;
  /** The subscription's project (its notifications are the project's). */
  projectId: string;
  workload: string;
  /** What the subscription updates: the image tag, or the chart version (absent on outcomes recorded before charts). */
  kind?: WatchKind;
  /** What the policy chooses among the repository's tags now (null: nothing qualifies). */
  chosen: string | null;
  /** `not-chosen` (the policy prefers another tag), or the image update's status (`committed`, `accepted`, ...). */
  result: string;
  /** The last commit it made (a held target applied after its freeze makes another). */
  commit?: string | null;
  /** Targets updated, each with the commit that updated it. */
  updated?: UpdatedTarget[];
  /** Targets not updated, each with its reason (`pinned`, `frozen`, `superseded`) and detail. */
  skipped?: SkippedTarget[];
  /** Targets a freeze holds: applied when the freeze ends (retried), unless a newer version supersedes this one. */
  held?: Pair[];
  /** The image rollouts the update started (environments with a rollout plan): their waves update those targets. */
  rollouts?: RolloutRef[];
  error?: string;
}

type Pair = { tenant: string; environment: string };
export type RolloutRef = { rolloutId: string; environment: string };
export type UpdatedTarget = Pair & { tag: string; commit: string | null };
export type SkippedTarget = Pair & { reason: string; detail?: string };

const pairKey = (p: Pair) => `${p.tenant}/${p.environment}`;

const frozenOf = (skipped: SkippedTarget[]): Pair[] =>
  skipped.filter((s) => s.reason === 'frozen').map((s) => ({ tenant: s.tenant, environment: s.environment }));

/** What an evaluation's outcome is notified as: the version found and chosen; the targets it could not update. */
function domainEventsOf(discovery: WatchDiscovery, o: DiscoveryOutcome, first: boolean) {
  const image = { name: `${discovery.repository}:${discovery.tag}`, workload: o.workload, digest: discovery.digest };
  const events = [];
  if (first && o.result !== 'not-chosen') {
    const updated = (o.updated ?? []).map(pairKey).join(', ');
    events.push({
      type: DOMAIN_EVENT.imageDiscovered,
      payload: { ...image, result: o.result, commit: o.commit ?? null, updated, discoveryId: discovery.id },
    });
  }
  const blocked = (o.skipped ?? []).filter((s) => s.reason === 'pinned' || s.reason === 'frozen');
  if (blocked.length > 0 || o.error !== undefined) {
    const reasons = blocked.map((b) => `${pairKey(b)} ${b.reason}${b.detail ? ` (${b.detail})` : ''}`);
    events.push({
      type: DOMAIN_EVENT.imageUpdateBlocked,
      payload: {
        ...image,
        reason: [...reasons, ...(o.error !== undefined ? [o.error] : [])].join('; '),
        blocked,
        discoveryId: discovery.id,
      },
    });
  }
  return events.map((e) => ({ ...e, organizationId: discovery.organizationId, projectId: o.projectId }));
}

export type WatchDiscoveryService = ReturnType<typeof createWatchDiscovery>;

/**
 * Discovery on push to the organization's own registry (issue 49, docs/automation.md): no polling. A push of a tag to a
 * watched repository records a discovery in the push's own transaction (durable with the push); after it commits, each
 * subscription's policy is evaluated over the repository's tags and, when it chooses the pushed tag, the update goes
 * through the image-update webhook's governed path (one commit, audit entry, pins, freezes). A discovery a crash left
 * pending is evaluated by the reconciler; updates are keyed by discovery and subscription, so none happens twice.
 * External registries hand their polls' discoveries to `evaluate` with the candidates the poll saw. A target a freeze
 * refused is held on the discovery and applied once the freeze ends (`retryHeld`, run by the reconciler and the polls).
 */
export function createWatchDiscovery(deps: {
  db: Db;
  audit: AuditService;
  registry: Pick<RegistryService, 'taggedDigests'>;
  created: Pick<PlatformCreated, 'withCreated'>;
  imageUpdates: Pick<ImageUpdateService, 'applyDiscovered' | 'frozenPairs'>;
  log: Logger;
}) {
  const { db } = deps;
  const workloadNames = new Map<string, Map<string, string>>();

  async function workloadOf(sub: WatchTarget): Promise<string> {
    if (!workloadNames.get(sub.projectId)?.has(sub.workloadId)) {
      workloadNames.set(sub.projectId, new Map((await listWorkloads(db, sub.projectId)).map((w) => [w.id, w.name])));
    }
    return workloadNames.get(sub.projectId)?.get(sub.workloadId) ?? '';
  }

  async function apply(
    discovery: WatchDiscovery,
    sub: WatchTarget,
    base: Pick<DiscoveryOutcome, 'subscriptionId' | 'projectId' | 'workload' | 'kind' | 'chosen'>,
    extra: { pairs?: Pair[]; key: string },
  ): Promise<DiscoveryOutcome> {
    const answer = await deps.imageUpdates.applyDiscovered({
      organizationId: sub.organizationId,
      projectId: sub.projectId,
      workload: base.workload,
      tag: valueOf(sub.kind, base.chosen as string),
      ...(sub.kind === 'chart' ? { field: 'chart' as const } : {}),
      environments: sub.environments,
      tenants: sub.tenants,
      ...extra,
      foundAt: discovery.foundAt,
      requestId: `watch-${discovery.id}`,
    });
    const skipped = (answer.skipped as SkippedTarget[] | undefined) ?? [];
    const held = frozenOf(skipped);
    const commit = (answer.commit as string | null | undefined) ?? null;
    const updated = ((answer.updated as (Pair & { tag: string })[] | undefined) ?? []).map((u) => ({
      tenant: u.tenant,
      environment: u.environment,
      tag: u.tag,
      commit,
    }));
    const rollouts = ((answer.rollouts as RolloutRef[] | undefined) ?? []).map(({ rolloutId, environment }) => ({
      rolloutId,
      environment,
    }));
    return {
      subscriptionId: base.subscriptionId,
      projectId: base.projectId,
      workload: base.workload,
      kind: sub.kind,
      chosen: base.chosen,
      result: String(answer.status ?? 'unknown'),
      commit,
      updated,
      skipped,
      held,
      ...(rollouts.length > 0 ? { rollouts } : {}),
      ...(answer.error !== undefined ? { error: String(answer.error) } : {}),
    };
  }

  /**
   * Stores the outcomes with their audit entry and notifications, once per state change (`from`): held while any
   * target is held. `fresh` are the outcomes this evaluation produced (a retry notifies only what it retried).
   */
  async function record(
    discovery: WatchDiscovery,
    outcomes: DiscoveryOutcome[],
    from: WatchDiscovery['status'],
    fresh: DiscoveryOutcome[],
  ) {
    const to = outcomes.some((o) => (o.held ?? []).length > 0) ? 'held' : 'evaluated';
    await db.transaction(async (trx: Tx) => {
      if (!(await finishDiscovery(trx, discovery.id, { from, to, outcomes }))) return;
      for (const o of fresh) {
        for (const event of domainEventsOf(discovery, o, from === 'pending')) await recordDomainEvent(trx, event);
      }
      await deps.audit.append(
        trx,
        orgEntry(systemCaller(WATCH_SUBSYSTEM, discovery.organizationId, `watch-${discovery.id}`), {
          action: from === 'held' ? 'watch.discovery.retry' : 'watch.discovery.evaluate',
          category: 'deployment',
          resourceType: 'watch_discovery',
          resourceId: discovery.id,
          details: {
            source: discovery.source,
            repository: discovery.repository,
            tag: discovery.tag,
            digest: discovery.digest,
            status: to,
            outcomes: outcomes.map((o) => ({
              subscriptionId: o.subscriptionId,
              workload: o.workload,
              chosen: o.chosen,
              result: o.result,
              commit: o.commit ?? null,
              held: o.held ?? [],
              ...(o.rollouts ? { rollouts: o.rollouts } : {}),
            })),
          },
        }),
      );
    });
  }

  /** The tags a poll saw, or the organization registry's (with image creation times where a policy orders by it). */
  const candidatesOf = async (
    discovery: WatchDiscovery,
    subscriptions: readonly WatchTarget[],
    given?: readonly CandidateTag[],
  ) =>
    given ??
    deps.created.withCreated(
      discovery.organizationId,
      discovery.repository,
      subscriptions.map((s) => s.policy),
      await deps.registry.taggedDigests(discovery.organizationId, discovery.repository),
    );

  /** Evaluates a pending discovery: each subscription of its repository applies it when its policy chooses it. */
  async function evaluate(discovery: WatchDiscovery, given?: readonly CandidateTag[]): Promise<DiscoveryOutcome[]> {
    const subscriptions = await subscriptionsWatching(db, discovery.organizationId, discovery);
    const candidates = await candidatesOf(discovery, subscriptions, given);
    const outcomes: DiscoveryOutcome[] = [];
    for (const sub of subscriptions) {
      const choice = choose(sub.policy, candidates);
      const base = {
        subscriptionId: sub.id,
        projectId: sub.projectId,
        workload: await workloadOf(sub),
        kind: sub.kind,
        chosen: choice?.reference ?? null,
      };
      // Only the pushed tag at its pushed digest is this discovery's to apply; another choice is another push's.
      if (!choice || choice.tag !== discovery.tag || choice.digest !== discovery.digest) {
        outcomes.push({ ...base, result: 'not-chosen' });
        continue;
      }
      outcomes.push(await apply(discovery, sub, base, { key: `${discovery.id}:${sub.id}` }));
    }
    await record(discovery, outcomes, 'pending', outcomes);
    return outcomes;
  }

  /**
   * A held discovery again: each held target whose freeze has ended is applied (keyed by the targets, so a retry after
   * a crash is a duplicate), unless the subscription's policy now chooses another version (`superseded`).
   */
  async function retryHeld(discovery: WatchDiscovery, given?: readonly CandidateTag[]): Promise<boolean> {
    const subscriptions = new Map(
      (await subscriptionsWatching(db, discovery.organizationId, discovery)).map((s) => [s.id, s]),
    );
    const candidates = await candidatesOf(discovery, [...subscriptions.values()], given);
    let changed = false;
    const outcomes: DiscoveryOutcome[] = [];
    const retriedNow: DiscoveryOutcome[] = [];
    for (const outcome of discovery.outcomes as DiscoveryOutcome[]) {
      const sub = subscriptions.get(outcome.subscriptionId);
      const held = outcome.held ?? [];
      if (held.length === 0) {
        outcomes.push(outcome);
        continue;
      }
      const choice = sub ? choose(sub.policy, candidates) : null;
      if (!sub || !choice || choice.tag !== discovery.tag || choice.digest !== discovery.digest) {
        changed = true;
        outcomes.push({ ...outcome, held: [], result: 'superseded', chosen: choice?.reference ?? null });
        continue;
      }
      const still = await deps.imageUpdates.frozenPairs(sub.organizationId, sub.projectId, held);
      const open = held.filter((h) => !still.some((s) => s.tenant === h.tenant && s.environment === h.environment));
      if (open.length === 0) {
        outcomes.push(outcome);
        continue;
      }
      changed = true;
      const key = `${discovery.id}:${sub.id}:${open.map((p) => `${p.tenant}/${p.environment}`).join(',')}`;
      const retried = await apply(discovery, sub, outcome, { key, pairs: open });
      retriedNow.push(retried);
      const applied = new Set(open.map(pairKey));
      outcomes.push({
        ...retried,
        // The targets updated before stay with their commit; the retried ones' earlier skip gives way to this answer.
        updated: [...(outcome.updated ?? []), ...(retried.updated ?? [])],
        skipped: [...(outcome.skipped ?? []).filter((p) => !applied.has(pairKey(p))), ...(retried.skipped ?? [])],
        held: [...still, ...(retried.held ?? [])],
        ...(outcome.rollouts || retried.rollouts
          ? { rollouts: [...(outcome.rollouts ?? []), ...(retried.rollouts ?? [])] }
          : {}),
      });
    }
    if (changed) await record(discovery, outcomes, 'held', retriedNow);
    return changed;
  }

  const hook: ManifestHook = {
    async pushed(caller, push) {
      if (push.tag === null) return;
      const ref = { source: 'platform' as const, registryId: null, repository: push.name };
      const watched = await subscriptionsWatching(db, caller.organizationId, ref);
      if (watched.length === 0) return;
      const found = { repository: push.name, tag: push.tag, digest: push.manifest.digest };
      return async (trx) => {
        await insertDiscovery(trx, caller.organizationId, found);
      };
    },
    deleting() {},
    stored(caller, push) {
      if (push.tag === null) return;
      const match = {
        organizationId: caller.organizationId,
        repository: push.name,
        tag: push.tag,
        digest: push.digest,
      };
      // Not awaited: the registry client is answered at once; a crash leaves the discovery pending for the reconciler.
      void pendingDiscoveries(db, match)
        .then(async (found) => {
          for (const d of found) await evaluate(d);
        })
        .catch((err: unknown) =>
          deps.log.warn('watch discovery left to the reconciler', {
            error: err instanceof Error ? err.message : String(err),
            repository: push.name,
            tag: push.tag,
          }),
        );
    },
  };

  return {
    hook,
    evaluate,
    retryHeld,
    /**
     * Evaluates discoveries a crash left pending, and retries the held ones of the organization registry (an external
     * registry's poll retries its own with the tags it just listed).
     */
    async reconcile(olderThanMs: number): Promise<number> {
      const found = await pendingDiscoveries(db, { before: new Date(Date.now() - olderThanMs) });
      for (const d of found) await evaluate(d);
      let retried = 0;
      for (const d of await heldDiscoveries(db, null)) if (await retryHeld(d)) retried += 1;
      return found.length + retried;
    },
  };
}
