import type { AuditService } from '../audit/audit-service';
import type { Db, Tx } from '../db/knex';
import { orgEntry } from '../iam/caller';
import { systemCaller } from '../iam/system-caller';
import type { Logger } from '../logging/logger';
import { listWorkloads } from '../projects/workload-repository';
import type { ManifestHook, RegistryService } from '../registry/registry-service';
import type { ImageUpdateService } from '../webhooks/image-update-service';
import { choose } from './watch-policy';
import {
  finishDiscovery,
  insertDiscovery,
  pendingDiscoveries,
  subscriptionsWatching,
  type WatchDiscovery,
} from './watch-repository';

export const WATCH_SUBSYSTEM = 'watch';

/** What became of one subscription for one discovery (kept on the discovery, shown per workload). */
export interface DiscoveryOutcome {
  subscriptionId: string;
  workload: string;
  /** What the policy chooses among the repository's tags now (null: nothing qualifies). */
  chosen: string | null;
  /** `not-chosen` (the policy prefers another tag), or the image update's status (`committed`, `accepted`, ...). */
  result: string;
  commit?: string | null;
  updated?: unknown[];
  /** Targets not updated, each with its reason (`pinned`, `frozen`, `superseded`) and detail. */
  skipped?: unknown[];
  error?: string;
}

export type WatchDiscoveryService = ReturnType<typeof createWatchDiscovery>;

/**
 * Discovery on push to the organization's own registry (issue 49, docs/automation.md): no polling. A push of a tag to a
 * watched repository records a discovery in the push's own transaction (durable with the push); after it commits, each
 * subscription's policy is evaluated over the repository's tags and, when it chooses the pushed tag, the update goes
 * through the image-update webhook's governed path (one commit, audit entry, pins, freezes). A discovery a crash left
 * pending is evaluated by the reconciler; updates are keyed by discovery and subscription, so none happens twice.
 */
export function createWatchDiscovery(deps: {
  db: Db;
  audit: AuditService;
  registry: Pick<RegistryService, 'taggedDigests'>;
  imageUpdates: Pick<ImageUpdateService, 'applyDiscovered'>;
  log: Logger;
}) {
  const { db } = deps;

  async function evaluate(discovery: WatchDiscovery): Promise<DiscoveryOutcome[]> {
    const subscriptions = await subscriptionsWatching(db, discovery.organizationId, 'platform', discovery.repository);
    const candidates = await deps.registry.taggedDigests(discovery.organizationId, discovery.repository);
    const requestId = `watch-${discovery.id}`;
    const outcomes: DiscoveryOutcome[] = [];
    const names = new Map<string, Map<string, string>>();
    for (const sub of subscriptions) {
      if (!names.has(sub.projectId)) {
        names.set(sub.projectId, new Map((await listWorkloads(db, sub.projectId)).map((w) => [w.id, w.name])));
      }
      const workload = names.get(sub.projectId)?.get(sub.workloadId) ?? '';
      const choice = choose(sub.policy, candidates);
      const base = { subscriptionId: sub.id, workload, chosen: choice?.reference ?? null };
      // Only the pushed tag at its pushed digest is this discovery's to apply; another choice is another push's.
      if (!choice || choice.tag !== discovery.tag || choice.digest !== discovery.digest) {
        outcomes.push({ ...base, result: 'not-chosen' });
        continue;
      }
      const answer = await deps.imageUpdates.applyDiscovered({
        organizationId: sub.organizationId,
        projectId: sub.projectId,
        workload,
        tag: choice.reference,
        environments: sub.environments,
        tenants: sub.tenants,
        key: `${discovery.id}:${sub.id}`,
        foundAt: discovery.foundAt,
        requestId,
      });
      outcomes.push({
        ...base,
        result: String(answer.status ?? 'unknown'),
        commit: (answer.commit as string | null | undefined) ?? null,
        updated: (answer.updated as unknown[] | undefined) ?? [],
        skipped: (answer.skipped as unknown[] | undefined) ?? [],
        ...(answer.error !== undefined ? { error: String(answer.error) } : {}),
      });
    }
    await db.transaction(async (trx: Tx) => {
      if (!(await finishDiscovery(trx, discovery.id, outcomes))) return;
      await deps.audit.append(
        trx,
        orgEntry(systemCaller(WATCH_SUBSYSTEM, discovery.organizationId, requestId), {
          action: 'watch.discovery.evaluate',
          category: 'deployment',
          resourceType: 'watch_discovery',
          resourceId: discovery.id,
          details: {
            repository: discovery.repository,
            tag: discovery.tag,
            digest: discovery.digest,
            outcomes: outcomes.map((o) => ({
              subscriptionId: o.subscriptionId,
              workload: o.workload,
              chosen: o.chosen,
              result: o.result,
              commit: o.commit ?? null,
            })),
          },
        }),
      );
    });
    return outcomes;
  }

  const hook: ManifestHook = {
    async pushed(caller, push) {
      if (push.tag === null) return;
      const watched = await subscriptionsWatching(db, caller.organizationId, 'platform', push.name);
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
    /** Evaluates discoveries a crash left pending (run by the worker's reconciler). */
    async reconcile(olderThanMs: number): Promise<number> {
      const found = await pendingDiscoveries(db, { before: new Date(Date.now() - olderThanMs) });
      for (const d of found) await evaluate(d);
      return found.length;
    },
  };
}
