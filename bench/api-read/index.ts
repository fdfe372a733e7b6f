/**
 * Request path cost (issue 34 item 5):
 *   npm run bench:api-read [-- --seconds 8 --concurrency 16 --rounds 2]
 * Starts the platform on embedded defaults with 20 projects, signs in with a real session (password login, then the
 * organization switch), and measures authenticated `GET /api/v2/projects` against a bare Koa + pg handler doing one
 * indexed SELECT on the same database, alternating the two in rounds. The load runs in a worker thread. Prints
 * requests/s and p99 of each (the best round of each) and the ratio (goal >= 0.5).
 */
import os from 'node:os';
import { startBenchPlatform } from '../validate/platform';
import { line } from '../validate/stats';
import { runBench } from '../run-bench';
import { apiCaller } from '../api-call';
import { startBareKoa } from './bare-koa';
import { runLoad, type LoadResult } from './load';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};

async function sessionToken(baseUrl: string, organizationId: string): Promise<string> {
  const login = await fetch(new URL('/api/v1/auth/login', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.test', password: 'bench password 1' }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const { accessToken: scoped } = await apiCaller(baseUrl, accessToken)<{ accessToken: string }>(
    'PUT',
    '/api/v1/auth/active-organization',
    { organizationId },
  );
  return scoped;
}

const show = (name: string, r: LoadResult) =>
  line(
    `${name.padEnd(26)} ${r.perSecond.toFixed(0).padStart(6)} req/s  p50 ${r.p50Ms.toFixed(1)} ms  p99 ${r.p99Ms.toFixed(1)} ms  (${r.requests} requests)`,
  );

async function main(): Promise<void> {
  const seconds = arg('seconds', 8);
  const concurrency = arg('concurrency', 16);
  const rounds = arg('rounds', 2);
  const platform = await startBenchPlatform();
  const org = (await platform.services.db('organizations').where({ slug: 'bench' }).first('id')) as { id: string };
  const bare = await startBareKoa(platform.databaseUrl, org.id, 10);
  try {
    const call = apiCaller(platform.baseUrl, platform.token);
    for (let i = 0; i < 20; i++) {
      await call('POST', '/api/v2/projects', { slug: `bench-${String(i).padStart(2, '0')}`, name: `Bench ${i}` });
    }
    const token = await sessionToken(platform.baseUrl, org.id);
    const platformUrl = new URL('/api/v2/projects', platform.baseUrl).toString();
    // Warm both (JIT, pools, caches), then alternate so load drift hits both alike.
    await runLoad(platformUrl, token, concurrency, 2);
    await runLoad(bare.url, token, concurrency, 2);
    const results = { platform: [] as LoadResult[], bare: [] as LoadResult[] };
    for (let r = 0; r < rounds; r++) {
      results.platform.push(await runLoad(platformUrl, token, concurrency, seconds));
      results.bare.push(await runLoad(bare.url, token, concurrency, seconds));
    }
    const best = (xs: LoadResult[]) => xs.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
    const [p, b] = [best(results.platform), best(results.bare)];
    line(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}, ${os.cpus().length} cores, concurrency ${concurrency}, ${seconds} s x ${rounds} rounds`,
    );
    show('platform GET /api/v2/projects', p);
    show('bare Koa + pg', b);
    line(`ratio platform / bare: ${(p.perSecond / b.perSecond).toFixed(2)} (goal >= 0.50)`);
  } finally {
    await bare.stop();
    await platform.stop();
  }
}

runBench(main);
