import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { apiCaller } from '../api-call';
import { addWorkload, makeProject } from '../shop-project';
import type { startBenchPlatform } from '../validate/platform';
import { elapsedMs, line } from '../validate/stats';
import type { RunningRegistry, ThrottlingProxy } from '../../test/helpers/docker-registry';
import { choose, type WatchPolicy } from '../../src/watch/watch-policy';
import type { PollSummary } from '../../src/watch/watch-registry-contract';
import { watchRegistryStateQuery } from '../../src/watch/watch-registry-contract';
import { inLanes, mean, pct, perPoll, sleep, summary } from './figures';

const run = promisify(execFile);

type Platform = Awaited<ReturnType<typeof startBenchPlatform>>;
type Upstream = { registry: RunningRegistry; proxy: ThrottlingProxy; repos: string[]; tags: string[] };

/** The policies of the subscriptions, in turn: two semver ranges and digest tracking of `stable`. */
const POLICIES: WatchPolicy[] = [
  { kind: 'semver', range: '>=1.0.0 <2.0.0', includePrerelease: false },
  { kind: 'semver', range: '~1.2.0', includePrerelease: false },
  { kind: 'digest', tag: 'stable' },
];
const MANIFEST_TYPES = 'application/vnd.oci.image.manifest.v1+json, application/vnd.oci.image.index.v1+json';

/** Measures `fn`: wall and this process's CPU (ms). */
async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; cpuMs: number; value: T }> {
  const cpu = process.cpuUsage();
  const began = process.hrtime.bigint();
  const value = await fn();
  const ms = elapsedMs(began);
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, value };
}

/**
 * Project `fleet` (`workloads` workloads on env-0, tenant t0, generated), the registry added (its workflow's first
 * poll waited for: nothing is subscribed then, and the next is an hour later), and every workload subscribed to every
 * repository through the API: answers the poller's input and the number of subscriptions.
 */
async function subscribeFleet(platform: Platform, call: ReturnType<typeof apiCaller>, up: Upstream, count: number) {
  const environments = ['env-0'];
  await makeProject(call, 'fleet', environments, 1);
  const workloads = Array.from({ length: count }, (_, i) => `w${i}`);
  for (const name of workloads) await addWorkload(call, 'fleet', name);
  await call('POST', '/api/v2/projects/fleet/delivery/generate', {});
  const added = await call<{ id: string; workflowId: string }>('POST', '/api/v2/watch/registries', {
    name: 'hub',
    url: up.proxy.url,
    username: up.registry.username,
    password: up.registry.password,
  });
  const handle = platform.services.temporal.workflow.getHandle(added.workflowId);
  for (const deadline = Date.now() + 120_000; ; await sleep(200)) {
    const state = await handle.query(watchRegistryStateQuery).catch(() => null);
    if (state && state.polls >= 1) break;
    if (Date.now() > deadline) throw new Error("the registry workflow's first poll did not happen");
  }
  const began = process.hrtime.bigint();
  const pairs = workloads.flatMap((workload, w) => up.repos.map((repo, r) => ({ workload, repo, w, r })));
  await inLanes(pairs, 4, async ({ workload, repo, w, r }) => {
    await call('POST', '/api/v2/projects/fleet/watch/subscriptions', {
      workload,
      repository: { source: 'external', registry: 'hub', name: repo },
      policy: POLICIES[(w + r) % POLICIES.length],
      environments,
    });
  });
  line(
    `${pairs.length} subscriptions (${workloads.length} workloads x ${up.repos.length} repositories, policies in ` +
      `turn ${POLICIES.map((p) => (p.kind === 'semver' ? p.range : p.kind === 'digest' ? `digest of ${p.tag}` : p.pattern)).join(' | ')}; each ` +
      `updates env-0 of the one tenant) through the API in ${(elapsedMs(began) / 1000).toFixed(1)} s`,
  );
  const org = (await platform.services.db('organizations').where({ slug: 'bench' }).first('id')) as { id: string };
  return { input: { organizationId: org.id, registryId: added.id }, subscriptions: pairs.length };
}

/** The first poll: it finds the versions and commits them (untimed in the figures; its cost is printed). */
async function firstPoll(platform: Platform, input: { organizationId: string; registryId: string }) {
  const { db, repositories, watchPoller } = platform.services;
  const project = (await db('projects').where({ slug: 'fleet' }).first('id')) as { id: string };
  const repo = repositories.pathOf(input.organizationId, project.id);
  const commits = async () => Number((await run('git', ['-C', repo, 'rev-list', '--count', 'main'])).stdout.trim());
  const before = await commits();
  const first = await timed(() => watchPoller.poll(input));
  const found = (await db('watch_discoveries').where({ registry_id: input.registryId })) as {
    outcomes: { result: string }[];
  }[];
  const results = new Map<string, number>();
  for (const o of found.flatMap((d) => d.outcomes)) results.set(o.result, (results.get(o.result) ?? 0) + 1);
  line(
    `first poll (untimed in the figures): ${(first.ms / 1000).toFixed(1)} s, ${first.value.discoveries} new ` +
      `versions, outcomes ${[...results].map(([k, n]) => `${k} ${n}`).join(', ')}, ${(await commits()) - before} ` +
      `commits${first.value.failed.length > 0 ? `; FAILED: ${first.value.failed.join('; ')}` : ''}`,
  );
}

/**
 * The references, sent through the same proxy as many at once as the poller sends: the tag-list GETs alone (the floor,
 * conditional on the ETag each answered with when the registry gives one), and the same requests a poll sends (each
 * tag list, then a HEAD of each manifest some policy chooses). Each answers the HTTP statuses it got.
 */
async function bareRequests(up: Upstream, lanes: number) {
  const auth = `Basic ${Buffer.from(`${up.registry.username}:${up.registry.password}`).toString('base64')}`;
  const etags = new Map<string, string>();
  const get = async (repo: string, statuses: number[]) => {
    const etag = etags.get(repo);
    const res = await fetch(`${up.proxy.url}/v2/${repo}/tags/list?n=1000`, {
      headers: { authorization: auth, ...(etag ? { 'if-none-match': etag } : {}) },
    });
    await res.arrayBuffer();
    if (res.headers.get('etag')) etags.set(repo, res.headers.get('etag')!);
    statuses.push(res.status);
  };
  const candidates = up.tags.map((tag) => ({ tag, digest: '', createdAt: new Date(0) }));
  const chosen = [...new Set(POLICIES.map((p) => choose(p, candidates)?.tag).filter((t) => t !== undefined))];
  const lists = async () => {
    const statuses: number[] = [];
    await inLanes(up.repos, lanes, (repo) => get(repo, statuses));
    return statuses;
  };
  const same = async () => {
    const statuses: number[] = [];
    await inLanes(up.repos, lanes, async (repo) => {
      await get(repo, statuses);
      for (const tag of chosen) {
        const res = await fetch(`${up.proxy.url}/v2/${repo}/manifests/${tag}`, {
          method: 'HEAD',
          headers: { authorization: auth, accept: MANIFEST_TYPES },
        });
        await res.arrayBuffer();
        statuses.push(res.status);
      }
    });
    return statuses;
  };
  await lists();
  return { lists, same, etags: () => etags.size };
}

/** Part 1: `workloads` x repositories subscriptions to one external registry, its steady polls beside the floor. */
export async function polling(
  platform: Platform,
  call: ReturnType<typeof apiCaller>,
  up: Upstream,
  counts: { workloads: number; polls: number },
) {
  const { input, subscriptions } = await subscribeFleet(platform, call, up, counts.workloads);
  await firstPoll(platform, input);
  const lanes = platform.services.config.watch.concurrency;
  const bare = await bareRequests(up, lanes);
  const polls: { ms: number; cpuMs: number; value: PollSummary; proxied: { requests: number; tagLists: number } }[] =
    [];
  const floor: { ms: number; cpuMs: number; value: number[] }[] = [];
  const same: { ms: number; cpuMs: number; value: number[] }[] = [];
  // Round robin, so each sees the same machine.
  for (let i = 0; i < counts.polls; i++) {
    const seen = { ...up.proxy.counts };
    const poll = await timed(() => platform.services.watchPoller.poll(input));
    const { requests, tagLists } = up.proxy.counts;
    polls.push({ ...poll, proxied: { requests: requests - seen.requests, tagLists: tagLists - seen.tagLists } });
    floor.push(await timed(bare.lists));
    same.push(await timed(bare.same));
  }
  const n = up.repos.length;
  const bad = polls.filter(
    (p) => p.value.failed.length > 0 || p.value.throttled || p.value.discoveries > 0 || p.value.tagListRequests !== n,
  );
  const [pollMs, floorMs, sameMs] = [polls, floor, same].map((xs) => xs.map((x) => x.ms)) as [
    number[],
    number[],
    number[],
  ];
  const ratio = (a: number[], b: number[]) =>
    `${(pct(a, 50) / pct(b, 50)).toFixed(1)}x at p50, ${(pct(a, 95) / pct(b, 95)).toFixed(1)}x at p95`;
  const cpu = (xs: { cpuMs: number }[]) => `${mean(xs.map((x) => x.cpuMs)).toFixed(1)} ms`;
  line(
    `\n${counts.polls} steady polls of ${n} repositories watched by ${subscriptions} subscriptions ` +
      `(WATCH_REGISTRY_CONCURRENCY ${lanes}; the registry gave ${bare.etags() === 0 ? 'no ETag' : `ETags for ${bare.etags()}`} on its tag lists)`,
  );
  line(summary('poll (services.watchPoller.poll) wall', pollMs));
  line(summary(`floor: the ${n} bare conditional tag-list GETs`, floorMs));
  line(summary('reference: the same requests the poll sends, bare', sameMs));
  line(`  poll wall ${ratio(pollMs, floorMs)} the floor; ${ratio(pollMs, sameMs)} the same requests bare`);
  line(
    `  CPU per poll ${cpu(polls)} (this whole process while the poll ran: API, worker and the proxy); ` +
      `the floor's requests ${cpu(floor)}, the same requests bare ${cpu(same)} (the client and the proxy)`,
  );
  line(
    `  per poll: requests ${perPoll(polls.map((p) => p.value.requests))}, tag lists ` +
      `${perPoll(polls.map((p) => p.value.tagListRequests))}, 304s ${perPoll(polls.map((p) => p.value.notModified))}; ` +
      `the proxy received requests ${perPoll(polls.map((p) => p.proxied.requests))}, ` +
      `tag lists ${perPoll(polls.map((p) => p.proxied.tagLists))}`,
  );
  line(
    `  requests per poll ${(mean(polls.map((p) => p.value.requests)) / n).toFixed(1)}x the floor's ${n} ` +
      `(304s in the floor: ${perPoll(floor.map((f) => f.value.filter((s) => s === 304).length))}); the rest are ` +
      `one manifest HEAD per repository and tag some policy chooses (${same[0]?.value.length ?? 0} requests bare)`,
  );
  const once = bad.length === 0 && polls.every((p) => p.proxied.tagLists === n);
  line(
    `  no duplicate requests (one tag list per repository per poll, however many subscriptions share it): ` +
      `${
        once
          ? 'yes'
          : `NO: ${bad
              .map((p) => JSON.stringify(p.value))
              .slice(0, 3)
              .join('; ')}`
      }`,
  );
}
