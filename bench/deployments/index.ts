/**
 * Deployment truth figures (issue 27, Performance):
 *   npm run bench:deployments [-- --tenants 50 --environments 4 --services 5 --reads 200 --releases 20]
 * Starts the platform on embedded defaults (API and worker in this process, PostgreSQL and Temporal embedded, no fixed
 * port: the agent gRPC port is 0), makes a project of tenants x environments x services Applications, generates it
 * and lets the controller simulator (test/helpers/controller-simulator.ts: clone over /git/r with a read key, reports
 * only on change, whole-second timestamps) sync every Application. Then measures:
 *   1. `GET /api/v2/projects/{slug}/deployments`: one page of ORG_PAGE_MAX (100) and the whole matrix page by page,
 *      p50 / p95 (goal p95 < 100 ms for the page), beside `GET /api/v2/projects/shop` as the reference;
 *   2. releases one after another, each changing one service of a target: create -> commit (as the row records it)
 *      beside create -> Healthy through the simulator (a refresh right after the commit).
 */
import { controllerSimulator } from '../../test/helpers/controller-simulator';
import { startBenchPlatform } from '../validate/platform';
import { elapsedMs, line, percentile } from '../validate/stats';
import { apiCaller } from '../api-call';
import { runBench } from '../run-bench';
import { makeShopProject } from '../shop-project';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

const figures = (label: string, ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return `${label.padEnd(52)} p50 ${percentile(sorted, 50).toFixed(0).padStart(5)} ms   p95 ${percentile(sorted, 95)
    .toFixed(0)
    .padStart(5)} ms   max ${(sorted.at(-1) ?? NaN).toFixed(0).padStart(5)} ms`;
};

interface Release {
  id: string;
  status: string;
  commitSha: string | null;
  createdAt: string;
  committedAt: string | null;
}

async function main(): Promise<void> {
  const tenantCount = arg('tenants', 50);
  const environmentCount = arg('environments', 4);
  const serviceCount = arg('services', 5);
  const reads = arg('reads', 200);
  const releases = arg('releases', 20);
  const platform = await startBenchPlatform({ AGENT_GRPC_PORT: '0', RELEASE_QUEUE_POLL: '1s' }, { worker: true });
  const call = apiCaller(platform.baseUrl, platform.token);
  const sim = { close: async () => undefined } as { close(): Promise<void> };
  try {
    const { environments, tenants } = await makeShopProject(call, {
      environments: environmentCount,
      tenants: tenantCount,
    });
    for (let s = 0; s < serviceCount; s++) {
      await call('POST', '/api/v2/projects/shop/workloads', {
        name: `svc-${s}`,
        image: { repository: `registry.example.com/shop/svc-${s}`, tag: '1.0.0' },
      });
    }
    const { key } = await call<{ key: string }>('POST', '/api/v2/projects/shop/api-keys', {
      name: 'controller',
      scopes: ['read'],
    });
    const { token: controllerToken } = await call<{ token: string }>('POST', '/api/v2/org/cdcontroller-token');
    const url = new URL('/git/r/bench/shop.git', platform.baseUrl);
    url.username = 'token';
    url.password = key;
    const controller = controllerSimulator({ cloneUrl: url.toString(), baseUrl: platform.baseUrl, controllerToken });
    Object.assign(sim, controller);
    await call('POST', '/api/v2/projects/shop/delivery/generate', {});
    const first = await controller.refresh();
    const applications = tenantCount * environmentCount * serviceCount;
    line(`${applications} Applications generated; the simulator's first look sent ${first.length} reports`);

    const timed = async (route: string) => {
      const start = process.hrtime.bigint();
      await call('GET', route);
      return elapsedMs(start);
    };
    // The floor: a plain project read through the same auth chain and server.
    const floor: number[] = [];
    for (let i = 0; i < reads; i++) floor.push(await timed('/api/v2/projects/shop'));
    line(figures('GET /api/v2/projects/shop (reference)', floor));
    const page: number[] = [];
    for (let i = 0; i < reads; i++) page.push(await timed('/api/v2/projects/shop/deployments?limit=100'));
    line(figures('GET .../deployments?limit=100 (one page)', page));
    const filtered: number[] = [];
    for (let i = 0; i < reads; i++) {
      filtered.push(await timed(`/api/v2/projects/shop/deployments?environment=env-${i % environmentCount}&limit=100`));
    }
    line(figures('GET .../deployments?environment=...&limit=100', filtered));
    const whole: number[] = [];
    for (let i = 0; i < Math.min(reads, 20); i++) {
      const start = process.hrtime.bigint();
      let cursor: string | null = null;
      do {
        const res: { nextCursor: string | null } = await call(
          'GET',
          `/api/v2/projects/shop/deployments?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
        );
        cursor = res.nextCursor;
      } while (cursor);
      whole.push(elapsedMs(start));
    }
    line(figures(`the whole matrix (${applications} cells, pages of 100)`, whole));

    const toCommit: number[] = [];
    const toHealthy: number[] = [];
    for (let i = 0; i < releases; i++) {
      const start = Date.now();
      const created = await call<Release>('POST', '/api/v2/projects/shop/releases', {
        environment: environments[i % environmentCount],
        tenantId: tenants[i % tenantCount],
        title: `bench ${i}`,
        changes: [{ workload: `svc-${i % serviceCount}`, tag: `2.0.${i}` }],
      });
      let release = created;
      while (release.commitSha === null) {
        await new Promise((r) => setTimeout(r, 20));
        release = await call<Release>('GET', `/api/v2/releases/${created.id}`);
      }
      await controller.refresh();
      while (release.status !== 'Healthy') {
        if (release.status === 'Failed') throw new Error(`release ${release.id} failed`);
        await new Promise((r) => setTimeout(r, 20));
        release = await call<Release>('GET', `/api/v2/releases/${created.id}`);
      }
      toHealthy.push(Date.now() - start);
      toCommit.push(Date.parse(release.committedAt ?? '') - Date.parse(release.createdAt));
    }
    line(figures('release create -> commit (row)', toCommit));
    line(figures('release create -> Healthy through the simulator', toHealthy));
  } finally {
    await sim.close();
    await platform.stop();
  }
}

runBench(main);
