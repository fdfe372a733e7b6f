/**
 * Watch figures (issue 49, Performance; docs/automation.md):
 *   npm run bench:watch [-- --workloads 100 --repositories 10 --polls 20 --pushes 20]
 * 1. Polling an external registry: starts Debian's `docker-registry` (htpasswd basic auth, test/helpers) behind a
 *    counting HTTP proxy, pushes with skopeo the tags 1.0.0 .. 1.3.0 and `stable` to each of `repositories`
 *    repositories, adds it as an external registry of the platform (the registry's workflow polls once, with nothing
 *    subscribed yet, then waits an hour: the polls below are the only ones), makes project `fleet` with `workloads`
 *    workloads on one environment and one tenant and subscribes every workload to every repository through the API
 *    (100 x 10 = 1,000 subscriptions; policies in turn `>=1.0.0 <2.0.0`, `~1.2.0` and digest tracking of `stable`, all
 *    updating the one environment of the one tenant). One untimed first poll finds the versions and commits them
 *    (each subscription whose policy chose a version is one update of one file: about 1,000 updates, 20 s here).
 *    Then `polls` steady polls, each calling the poller directly (`services.watchPoller.poll`, the workflow's
 *    activity): wall time p50/p95, CPU, requests, tag lists and 304s per poll, and what the proxy received,
 *    checking that every poll lists each repository's tags exactly once (no request per subscription). The floor,
 *    in the same run and round robin with the polls: the bare conditional tag-list requests themselves (one GET of
 *    `/v2/<repo>/tags/list` per repository with basic auth and If-None-Match when the registry gave an ETag, through
 *    the same proxy, as many at once as the poller sends); the poll's wall time and requests as ratios to it. A
 *    second reference: the same requests the poll sends (the tag lists and a HEAD of each manifest some policy
 *    chooses), bare. The proxy runs in this process, so its CPU is in every CPU figure.
 * 2. Push to commit on the platform's own registry: project `app` (one workload, one environment, one tenant,
 *    generated), a semver subscription `>=2.0.0` of the workload to `app/web`; the blobs are uploaded once, then
 *    `pushes` tags are pushed one after another by an OCI manifest PUT (the timer starts at the PUT) and timed until
 *    the discovery is evaluated with the commit in its outcome (the database read every 5 ms) - p50/p95, goal p95 <
 *    1 s. The reference, alternating with the pushes: the signed image-update webhook's own request -> commit (its
 *    200 answer names the commit) for the same workload and target.
 * Cleans up the registry, the proxy, the platform and the temporary folders. Ports come from the environment
 * (bench/ports.ts for the platform; BENCH_REGISTRY_PORT and BENCH_PROXY_PORT for the registry and its proxy), else
 * free ones.
 */
import { apiCaller } from '../api-call';
import { runBench } from '../run-bench';
import { makeOrgEnvironments } from '../shop-project';
import { startBenchPlatform } from '../validate/platform';
import { elapsedMs, line } from '../validate/stats';
import { startDockerRegistry, startThrottlingProxy } from '../../test/helpers/docker-registry';
import { removeScratchDirs } from '../../test/helpers/scratch-dir';
import { pushLayout } from '../../test/integration/registry/oci-clients';
import { makeImageLayout } from '../../test/integration/registry/oci-layout';
import { inLanes } from './figures';
import { polling } from './polling';
import { pushToCommit } from './push-to-commit';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const portFromEnv = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);

/** The tags pushed to each repository of the external registry. */
const TAGS = ['1.0.0', '1.1.0', '1.2.0', '1.3.0', 'stable'];

/** The external registry: docker-registry behind the counting proxy, `TAGS` pushed with skopeo to each repository. */
async function startExternalRegistry(repoCount: number) {
  const registry = await startDockerRegistry(portFromEnv('BENCH_REGISTRY_PORT'));
  const proxy = await startThrottlingProxy(registry.host, portFromEnv('BENCH_PROXY_PORT')).catch(async (err) => {
    await registry.stop();
    throw err;
  });
  const repos = Array.from({ length: repoCount }, (_, i) => `images/r${i}`);
  const stop = async () => {
    await proxy.close();
    await registry.stop();
  };
  try {
    const began = process.hrtime.bigint();
    await inLanes(repos, 2, async (repo) => {
      for (const tag of TAGS) {
        const layout = makeImageLayout({ 'version.txt': `${repo} ${tag}\n` });
        const res = await pushLayout(
          layout.dir,
          `${registry.host}/${repo}:${tag}`,
          `${registry.username}:${registry.password}`,
        );
        if (!res.ok) throw new Error(`skopeo push ${repo}:${tag}: ${res.stderr}`);
      }
    });
    line(
      `pushed ${TAGS.join(', ')} to ${repos.length} repositories of docker-registry with skopeo ` +
        `(${(elapsedMs(began) / 1000).toFixed(1)} s)`,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { registry, proxy, repos, tags: TAGS, stop };
}

async function main(): Promise<void> {
  const counts = {
    workloads: arg('workloads', 100),
    repos: arg('repositories', 10),
    polls: arg('polls', 20),
    pushes: arg('pushes', 20),
  };
  let upstream: Awaited<ReturnType<typeof startExternalRegistry>> | undefined;
  let platform: Awaited<ReturnType<typeof startBenchPlatform>> | undefined;
  try {
    upstream = await startExternalRegistry(counts.repos);
    platform = await startBenchPlatform(
      {
        // The external registry is docker-registry behind a proxy on loopback, over http.
        NOTIFY_ALLOW_HTTP: 'true',
        NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
        NOTIFY_ALLOWED_PORTS: new URL(upstream.proxy.url).port,
        // The registry's workflow polls once at its start; the bench's polls are the only others.
        WATCH_POLL_INTERVAL: '1h',
      },
      { worker: true },
    );
    const call = apiCaller(platform.baseUrl, platform.token);
    await makeOrgEnvironments(call, 1);
    await polling(platform, call, upstream, counts);
    await pushToCommit(platform, call, counts.pushes);
  } finally {
    await platform?.stop();
    await upstream?.stop();
    removeScratchDirs();
  }
}

runBench(main);
