/**
 * A release's cost against its project's size (issue 46 item 4):
 *   npm run bench:release-size [-- --workloads 1000 --releases 30 --tenants 2]
 * Starts the platform on embedded defaults (API and worker in this process), makes project `small` with one workload
 * and project `large` with `workloads` of them (same tenants and environment), then releases one workload of each,
 * alternating, one after another: create call -> commit as the client sees it, each taken to Healthy before the next.
 * Prints both p50/p95 and large/small (goal: p95 <= 1.3x), measured in the same rounds so load affects both alike.
 * Every port comes from settings (startBenchPlatform: free ports unless the environment names them).
 */
import { startBenchPlatform } from '../validate/platform';
import { line, percentile } from '../validate/stats';
import { apiCaller } from '../api-call';
import { runBench } from '../run-bench';
import { addWorkload, makeOrgEnvironments, makeProject } from '../shop-project';
import { releaseClient, type Target } from './release-client';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

const p = (ms: number[], q: number) =>
  percentile(
    [...ms].sort((a, b) => a - b),
    q,
  );

async function main(): Promise<void> {
  const workloads = arg('workloads', 1000);
  const rounds = arg('releases', 30);
  const tenants = arg('tenants', 2);
  const platform = await startBenchPlatform({ RELEASE_QUEUE_POLL: '1s' }, { worker: true });
  const call = apiCaller(platform.baseUrl, platform.token);
  try {
    const [environment] = await makeOrgEnvironments(call, 1);
    const projects = { small: 1, large: workloads };
    const targets: Record<string, Target[]> = {};
    for (const [slug, count] of Object.entries(projects)) {
      const ids = await makeProject(call, slug, [environment!], tenants);
      targets[slug] = ids.map((tenantId) => ({ tenantId, environment: environment! }));
      // Eight requests at a time: the setup stays well inside the access token's lifetime.
      const names = Array.from({ length: count }, (_, w) => `w${w}`);
      const lane = async () => {
        for (let name = names.shift(); name; name = names.shift()) await addWorkload(call, slug, name);
      };
      await Promise.all(Array.from({ length: 8 }, lane));
    }
    line(`projects: small 1 workload, large ${workloads} workloads; ${tenants} tenants x 1 environment each`);
    const driver = await releaseClient(platform.baseUrl, call);
    const once = async (slug: string, i: number) => {
      const { clientMs, r } = await driver.release(slug, 'w0', targets[slug]![i % tenants]!);
      await driver.healthy(slug, 'w0', r);
      return clientMs;
    };
    // Warm-up: the first release of a process and of a project loads schemas, bundles and the repository.
    for (const slug of Object.keys(projects)) await once(slug, 0);
    const ms: Record<string, number[]> = { small: [], large: [] };
    for (let i = 0; i < rounds; i++) for (const slug of Object.keys(projects)) ms[slug]!.push(await once(slug, i));
    for (const slug of Object.keys(projects)) {
      line(
        `  ${slug.padEnd(6)} create -> commit p50 ${p(ms[slug]!, 50).toFixed(0)} ms, p95 ${p(ms[slug]!, 95).toFixed(0)} ms`,
      );
    }
    const ratio = p(ms.large!, 95) / p(ms.small!, 95);
    const median = p(ms.large!, 50) / p(ms.small!, 50);
    line(
      `large/small: p95 ${ratio.toFixed(2)}x, p50 ${median.toFixed(2)}x (goal p95 <= 1.3x: ${ratio <= 1.3 ? 'met' : 'MISSED'})`,
    );
  } finally {
    await platform.stop();
  }
}

runBench(main);
