/**
 * Request path cost (issue 34 item 5):
 *   npm run bench:api-read [-- --seconds 8 --concurrency 16 --rounds 3]
 * Starts the platform on embedded defaults with 20 projects, signs in with a real session (password login, then the
 * organization switch), and measures authenticated `GET /api/v2/projects` against a bare Koa + pg handler doing one
 * indexed SELECT on the same database (the narrow yardstick), and against a bare handler sending the platform's own
 * statement (captured from its pool), rotating the order each round. The load runs in a worker thread. Prints
 * requests/s, p50, p99 and main-thread busy time per request of each (the best round of each) and the ratios (goal
 * >= 0.5 against the narrow one).
 */
import os from 'node:os';
import { startBenchPlatform } from '../validate/platform';
import { line } from '../validate/stats';
import { loadAverageNow, runBench } from '../run-bench';
import { apiCaller } from '../api-call';
import type { Db } from '../../src/db/knex';
import { NARROW_QUERY, startBareKoa } from './bare-koa';
import { runLoad, type LoadResult } from './load';
import { sessionToken } from './session-token';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};

type Statement = { sql: string; bindings: unknown[] };

/** The statements the platform sends to its pool while it answers one listing. */
async function statementsOf(db: Db, url: string, token: string): Promise<Statement[]> {
  const seen: Statement[] = [];
  const onQuery = (q: { sql: string; bindings?: unknown[] }) =>
    void seen.push({ sql: q.sql, bindings: q.bindings ?? [] });
  db.on('query', onQuery);
  try {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
    await res.arrayBuffer();
  } finally {
    db.removeListener('query', onQuery);
  }
  return seen;
}

/** The listing's own statement among them, with knex's `?` placeholders turned into node-postgres's `$n`. */
function listingOf(statements: Statement[]): Statement {
  const listing = statements.find((q) => /from "projects"/i.test(q.sql));
  if (!listing) throw new Error('the listing statement was not seen');
  let n = 0;
  return { sql: listing.sql.replace(/\?/g, () => `$${++n}`), bindings: listing.bindings };
}

interface Target {
  name: string;
  url: string;
}

/**
 * CPU time of this process (the three servers; the load runs in another process, PostgreSQL in its own) per request
 * of one run, in microseconds: unlike requests/s, it hardly depends on what else loads the machine.
 */
async function measured(
  url: string,
  token: string,
  concurrency: number,
  seconds: number,
): Promise<LoadResult & { cpuUs: number }> {
  const before = process.cpuUsage();
  const result = await runLoad(url, token, concurrency, seconds);
  const used = process.cpuUsage(before);
  return { ...result, cpuUs: (used.user + used.system) / result.requests };
}

const show = (name: string, r: LoadResult & { cpuUs: number }) =>
  line(
    `${name.padEnd(32)} ${r.perSecond.toFixed(0).padStart(6)} req/s  p50 ${r.p50Ms.toFixed(1).padStart(5)} ms  p99 ${r.p99Ms.toFixed(1).padStart(5)} ms  ${r.cpuUs.toFixed(0).padStart(5)} us CPU/req  (${r.requests} requests)`,
  );

async function main(): Promise<void> {
  const seconds = arg('seconds', 8);
  const concurrency = arg('concurrency', 16);
  const rounds = arg('rounds', 3);
  const platform = await startBenchPlatform();
  const org = (await platform.services.db('organizations').where({ slug: 'bench' }).first('id')) as { id: string };
  const stops: (() => Promise<void>)[] = [];
  try {
    const call = apiCaller(platform.baseUrl, platform.token);
    for (let i = 0; i < 20; i++) {
      await call('POST', '/api/v2/projects', { slug: `bench-${String(i).padStart(2, '0')}`, name: `Bench ${i}` });
    }
    const token = await sessionToken(platform.baseUrl, org.id);
    const platformUrl = new URL('/api/v2/projects', platform.baseUrl).toString();
    const narrow = await startBareKoa(
      platform.databaseUrl,
      { sql: NARROW_QUERY.sql, bindings: NARROW_QUERY.bindings(org.id) },
      10,
    );
    stops.push(() => narrow.stop());
    // Warm the platform (JIT, pools, the read path's caches) before looking at what one request sends.
    await runLoad(platformUrl, token, concurrency, 3);
    const statements = await statementsOf(platform.services.db, platformUrl, token);
    const same = await startBareKoa(platform.databaseUrl, listingOf(statements), 10);
    stops.push(() => same.stop());
    const targets: Target[] = [
      { name: 'platform GET /api/v2/projects', url: platformUrl },
      { name: 'bare Koa + pg, narrow SELECT', url: narrow.url },
      { name: "bare Koa + pg, platform's query", url: same.url },
    ];
    // Warm the yardsticks too, then rotate the order each round so load drift hits each alike.
    for (const t of targets.slice(1)) await runLoad(t.url, token, concurrency, 2);
    const runs = new Map<Target, (LoadResult & { cpuUs: number })[]>(targets.map((t) => [t, []]));
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < targets.length; i++) {
        const t = targets[(r + i) % targets.length]!;
        runs.get(t)!.push(await measured(t.url, token, concurrency, seconds));
      }
    }
    const best = (t: Target) => runs.get(t)!.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
    const [p, n, s] = targets.map(best) as [
      LoadResult & { cpuUs: number },
      LoadResult & { cpuUs: number },
      LoadResult & { cpuUs: number },
    ];
    line(
      `load average ${loadAverageNow()}, ${os.cpus().length} cores, concurrency ${concurrency}, ${seconds} s x ${rounds} rounds (best of each)`,
    );
    targets.forEach((t, i) => show(t.name, [p, n, s][i]!));
    const ratio = (a: LoadResult, b: LoadResult) => (a.perSecond / b.perSecond).toFixed(2);
    line(`ratio platform / bare narrow SELECT:     ${ratio(p, n)} (goal >= 0.50)`);
    line(`ratio platform / bare platform's query:  ${ratio(p, s)}`);
    line(`SQL statements per platform request (caches warm): ${statements.length}`);
    for (const q of statements) line(`  ${q.sql.slice(0, 110)}`);
  } finally {
    for (const stop of stops.reverse()) await stop();
    await platform.stop();
  }
}

runBench(main);
