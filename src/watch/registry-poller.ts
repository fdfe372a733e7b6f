import type { Db } from '../db/knex';
import type { SecretBox } from '../identity/mfa/secret-box';
import type { SafeSender } from '../net/safe-http';
import { createdOrderTags } from './created-order';
import { IMAGE_DOCUMENT_MAX_BYTES, imageCreated, type ImageReader } from './image-created';
import { createRegistryClient, type RegistryAnswer, type RegistryClient } from './registry-client';
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

/** A request that did not answer: a 429 stops the poll, anything else is this repository's failure. Always false. */
function stopped(answer: RegistryAnswer<unknown>, what: string, summary: PollSummary, stop: Stop): false {
  if (answer.kind === 'throttled') throttle(stop, answer.retryAfterMs);
  else summary.failed.push(`${what}: ${answer.kind === 'failed' ? answer.error : 'no digest'}`);
  return false;
}

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
    let state: RepositoryState = before ?? { etag: null, tags: {}, created: {} };
    if (listed.kind === 'not-modified') summary.notModified += 1;
    else {
      const tags: Record<string, string> = {};
      for (const tag of listed.value.tags) tags[tag] = state.tags[tag] ?? now;
      state = { ...state, etag: listed.value.etag, tags };
      await saveRepositoryState(db, registry.registryId, repository, state);
    }
    const candidates: CandidateTag[] = Object.entries(state.tags).map(([tag, seen]) => ({
      tag,
      digest: '',
      createdAt: new Date(seen),
    }));
    const policies = subscriptions.map((s) => s.policy);
    const dating = createdOrderTags(policies, Object.keys(state.tags));
    if (!(await readCreated(client, registry.registryId, repository, dating, candidates, state, summary, stop))) return;
    // Only what some policy chooses is resolved to a digest, once however many subscriptions chose it.
    const chosen = new Set(policies.map((p) => choose(p, candidates)?.tag).filter((t) => t !== undefined));
    for (const candidate of candidates.filter((c) => chosen.has(c.tag) && c.digest === '')) {
      const resolved = await client.digestOf(repository, candidate.tag, null);
      if (resolved.kind !== 'ok') {
        stopped(resolved, `${repository}:${candidate.tag}`, summary, stop);
        return;
      }
      candidate.digest = resolved.value;
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

  /**
   * The tags a `created` order needs: each resolved to its digest (a re-pushed tag is another image), and each digest
   * not seen before read to its image config's `created` (image-created.ts), kept in the repository's state so no
   * poll reads a config twice. A tag whose image has no `created` keeps its first sighting. False: the poll stops here.
   */
  async function readCreated(
    client: RegistryClient,
    registryId: string,
    repository: string,
    tags: string[],
    candidates: CandidateTag[],
    state: RepositoryState,
    summary: PollSummary,
    stop: Stop,
  ): Promise<boolean> {
    if (tags.length === 0) return true;
    let trouble: RegistryAnswer<string> | null = null;
    const read = async (kind: 'manifests' | 'blobs', digest: string, maxBytes: number) => {
      const answer = await client.document(repository, kind, digest, maxBytes);
      if (answer.kind === 'ok') return answer.value;
      trouble ??= answer;
      return null;
    };
    const reader: ImageReader = {
      manifest: (d, max) => read('manifests', d, max),
      blob: (d, max) => read('blobs', d, max),
    };
    const created: Record<string, string | null> = {};
    for (const tag of tags) {
      const resolved = await client.digestOf(repository, tag, null);
      if (resolved.kind !== 'ok') return stopped(resolved, `${repository}:${tag}`, summary, stop);
      const digest = resolved.value;
      if (!(digest in state.created)) {
        const manifest = await read('manifests', digest, IMAGE_DOCUMENT_MAX_BYTES);
        const time = manifest === null ? null : await imageCreated(reader, manifest);
        if (trouble) return stopped(trouble, `${repository}:${tag}`, summary, stop);
        created[digest] = time?.toISOString() ?? null;
      } else created[digest] = state.created[digest] ?? null;
      const candidate = candidates.find((c) => c.tag === tag)!;
      candidate.digest = digest;
      if (created[digest]) candidate.createdAt = new Date(created[digest]);
    }
    // Only the digests the tags name now are kept: the state does not grow with every image ever pushed.
    if (JSON.stringify(created) !== JSON.stringify(state.created)) {
      state.created = created;
      await saveRepositoryState(db, registryId, repository, state);
    }
    return true;
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
