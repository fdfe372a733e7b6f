import type { Db } from '../db/knex';
import type { SecretBox } from '../identity/mfa/secret-box';
import type { SafeSender } from '../net/safe-http';
import { createRegistryClient, type RegistryClient } from './registry-client';
import type { WatchDiscoveryService } from './watch-discovery';
import { choose, type CandidateTag } from './watch-policy';
import type { PollSummary } from './watch-registry-contract';
import { findRegistry, repositoryStates, saveRepositoryState, type RepositoryState } from './watch-registry-repository';
import {
  heldDiscoveries,
  insertExternalDiscovery,
  pendingDiscoveries,
  subscriptionsOfRegistry,
  type WatchTarget,
} from './watch-repository';

export const registryPasswordAad = (registryId: string) => `watch-registry:${registryId}`;

export interface PollerSettings {
  concurrency: number;
  tagPageSize: number;
  tagMaxPages: number;
}

type Stop = { throttled: boolean; retryAfterMs: number | null };

/** A 429 ends the poll; the longest Retry-After asked for is the floor of the workflow's wait. */
function throttle(stop: Stop, retryAfterMs: number | null) {
  stop.throttled = true;
  if (retryAfterMs !== null) stop.retryAfterMs = Math.max(stop.retryAfterMs ?? 0, retryAfterMs);
}

export type RegistryPoller = ReturnType<typeof createRegistryPoller>;

/**
 * One poll of one external registry (the activity of workflows/watch-registry.ts). The repositories its subscriptions
 * watch are read once each, however many subscriptions share one (one tag list, conditional on the last ETag), at most
 * `concurrency` at a time; a 429 stops the poll (no new requests) and tells the workflow how long to wait. Each
 * subscription's policy chooses among the tags (the `created` order is when a poll first saw the tag); only chosen
 * tags are resolved to a digest (one HEAD each), and a (tag, digest) not seen before is recorded as a discovery and
 * evaluated through the governed path (src/watch/watch-discovery.ts). Discoveries a freeze holds are retried here.
 */
export function createRegistryPoller(deps: {
  db: Db;
  secrets: SecretBox;
  send: SafeSender;
  discovery: Pick<WatchDiscoveryService, 'evaluate' | 'retryHeld'>;
  settings: PollerSettings;
}) {
  const { db } = deps;

  async function pollRepository(
    client: RegistryClient,
    registry: { organizationId: string; registryId: string },
    repository: string,
    subscriptions: WatchTarget[],
    before: RepositoryState | undefined,
    summary: PollSummary,
    stop: Stop,
  ): Promise<void> {
    const listed = await client.listTags(repository, before?.etag ?? null);
    if (listed.kind === 'throttled') {
      throttle(stop, listed.retryAfterMs);
      return;
    }
    if (listed.kind === 'failed') {
      summary.failed.push(`${repository}: ${listed.error}`);
      return;
    }
    const now = new Date().toISOString();
    let state = before ?? { etag: null, tags: {} };
    if (listed.kind === 'not-modified') summary.notModified += 1;
    else {
      const tags: Record<string, string> = {};
      for (const tag of listed.value.tags) tags[tag] = state.tags[tag] ?? now;
      state = { etag: listed.value.etag, tags };
      await saveRepositoryState(db, registry.registryId, repository, state);
    }
    const candidates: CandidateTag[] = Object.entries(state.tags).map(([tag, seen]) => ({
      tag,
      digest: '',
      createdAt: new Date(seen),
    }));
    // Only what some policy chooses is resolved to a digest, once however many subscriptions chose it.
    const chosen = new Set(subscriptions.map((s) => choose(s.policy, candidates)?.tag).filter((t) => t !== undefined));
    for (const tag of chosen) {
      const resolved = await client.digestOf(repository, tag, null);
      if (resolved.kind === 'throttled') {
        throttle(stop, resolved.retryAfterMs);
        return;
      }
      if (resolved.kind !== 'ok') {
        summary.failed.push(`${repository}:${tag}: ${resolved.kind === 'failed' ? resolved.error : 'no digest'}`);
        return;
      }
      const candidate = candidates.find((c) => c.tag === tag);
      if (candidate) candidate.digest = resolved.value;
    }
    for (const c of candidates.filter((x) => chosen.has(x.tag))) {
      const found = await insertExternalDiscovery(db, registry.organizationId, registry.registryId, {
        repository,
        tag: c.tag,
        digest: c.digest,
      });
      if (!found) continue;
      summary.discoveries += 1;
      await deps.discovery.evaluate(found, candidates);
    }
    // What a crash left pending, and what a freeze held, judged against the tags just listed.
    for (const d of await pendingDiscoveries(db, { registryId: registry.registryId })) {
      if (d.repository === repository) await deps.discovery.evaluate(d, candidates);
    }
    for (const d of await heldDiscoveries(db, registry.registryId)) {
      if (d.repository === repository && (await deps.discovery.retryHeld(d, candidates))) summary.released += 1;
    }
  }

  return {
    async poll(input: { organizationId: string; registryId: string }): Promise<PollSummary> {
      const cpu = process.cpuUsage();
      const summary: PollSummary = {
        gone: false,
        repositories: 0,
        tagListRequests: 0,
        requests: 0,
        notModified: 0,
        discoveries: 0,
        released: 0,
        throttled: false,
        retryAfterMs: null,
        failed: [],
        cpuMs: 0,
      };
      const registry = await findRegistry(db, input.organizationId, { id: input.registryId });
      if (!registry) return { ...summary, gone: true };
      const credentials =
        registry.username !== null && registry.password_sealed !== null
          ? {
              username: registry.username,
              password: deps.secrets.open(registry.password_sealed, registryPasswordAad(registry.id)),
            }
          : null;
      const client = createRegistryClient(deps.send, registry.url, credentials, {
        pageSize: deps.settings.tagPageSize,
        maxPages: deps.settings.tagMaxPages,
      });
      const watched = await subscriptionsOfRegistry(db, input.organizationId, input.registryId);
      const states = await repositoryStates(db, input.registryId);
      const queue = [...watched.keys()].sort();
      summary.repositories = queue.length;
      const stop: Stop = { throttled: false, retryAfterMs: null };
      const lane = async () => {
        for (let next = queue.shift(); next !== undefined && !stop.throttled; next = queue.shift()) {
          await pollRepository(client, input, next, watched.get(next) ?? [], states.get(next), summary, stop);
        }
      };
      await Promise.all(Array.from({ length: Math.min(deps.settings.concurrency, queue.length) }, lane));
      const used = process.cpuUsage(cpu);
      return {
        ...summary,
        ...stop,
        requests: client.counts.requests,
        tagListRequests: client.counts.tagLists,
        cpuMs: Math.round((used.user + used.system) / 1000),
      };
    },
  };
}
