/**
 * The audit log's filters at scale (issue 42 item 2):
 *   npm run bench:audit [-- --entries 1000000 --samples 40 --without-actor-index]
 * Starts the platform on embedded defaults (ports picked free, or from the environment as every bench), fills the
 * audit log with `--entries` entries (four in five in the bench organization), then times the first and a later page
 * (keyset cursor) of `GET /api/v2/iam/audit-events` as the repository runs it (`queryEntries`, the statement the route
 * sends) for each filter, round-robin so every filter sees the same machine. Prints p50/p95 per filter and the actor
 * filter's p95 as a ratio to the median and to the slowest of the other filters of the same run (goal <= 2x).
 * `--without-actor-index` drops the indexes of migration 20261127100000 first: the figure before it.
 */
import { startBenchPlatform } from '../validate/platform';
import { elapsedMs, line, percentile } from '../validate/stats';
import { runBench } from '../run-bench';
import { queryEntries } from '../../src/audit/audit-repository';
import type { AuditQuery } from '../../src/audit/types';
import { FILL, fillAuditLog, userIdOf } from './fill';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};

type Filter = (i: number) => Promise<Omit<AuditQuery, 'organizationId' | 'limit'>>;

async function main(): Promise<void> {
  const entries = arg('entries', 1_000_000);
  const samples = arg('samples', 40);
  const platform = await startBenchPlatform();
  try {
    const { db } = platform.services;
    const org = (await db('organizations').where({ slug: 'bench' }).first('id')) as { id: string };
    let start = process.hrtime.bigint();
    await fillAuditLog(db, org.id, entries);
    line(`filled ${entries.toLocaleString('en')} audit entries in ${(elapsedMs(start) / 1000).toFixed(1)} s`);
    if (process.argv.includes('--without-actor-index')) {
      await db.raw('DROP INDEX audit_log_org_actor_seq');
      await db.raw('DROP INDEX audit_log_org_user_seq');
      line('without the actor indexes (migration 20261127100000 dropped)');
    }
    const day = 24 * 3600 * 1000;
    const others: Record<string, Filter> = {
      'none (organization only)': async () => ({}),
      action: async (i) => ({ action: `bench.action${i % FILL.actions}` }),
      'action prefix (bench.*)': async () => ({ action: 'bench.*' }),
      'actor type': async (i) => ({ actorType: i % 2 ? 'service_account' : 'system' }),
      'resource type': async (i) => ({ resourceType: `type${i % FILL.resourceTypes}` }),
      project: async (i) => ({
        projectId: (await db.raw(`SELECT md5(?)::uuid AS id`, [`p${i % FILL.projects}`])).rows[0].id,
      }),
      status: async () => ({ status: 'failure' }),
      'date range (one day)': async (i) => ({
        from: new Date(Date.now() - (i % 300) * day - day),
        to: new Date(Date.now() - (i % 300) * day),
      }),
    };
    const actors: Record<string, Filter> = {
      'actor (email)': async (i) => ({ actor: `user${(i * 7) % FILL.users}@example.test` }),
      'actor (rare, ~80 entries)': async (i) => ({ actor: `rare${i % 10}@example.test` }),
      'actor (user id)': async (i) => ({ actor: await userIdOf(db, (i * 7) % FILL.users) }),
      'actor (service account)': async (i) => ({ actor: `sa-${i % FILL.serviceAccounts}` }),
    };
    const filters = { ...others, ...actors };
    const times = new Map<string, number[]>(Object.keys(filters).map((k) => [k, []]));
    // One untimed round first: the fill left the table's pages cold, which would land on whichever filter runs first.
    for (const filter of Object.values(filters))
      await queryEntries(db, { organizationId: org.id, limit: 50, ...(await filter(samples)) }, null);
    for (let i = 0; i < samples; i++) {
      for (const [name, filter] of Object.entries(filters)) {
        const query: AuditQuery = { organizationId: org.id, limit: 50, ...(await filter(i)) };
        start = process.hrtime.bigint();
        const first = await queryEntries(db, query, null);
        // Every other sample also reads the next page through the keyset cursor, as a client paging does.
        const last = first.items[first.items.length - 1];
        if (i % 2 && last) {
          const seq = (await db('audit_log').where({ id: last.id }).first('seq')) as { seq: string };
          times.get(name)!.push(elapsedMs(start));
          start = process.hrtime.bigint();
          await queryEntries(db, query, seq.seq);
        }
        times.get(name)!.push(elapsedMs(start));
      }
    }
    const stats = new Map(
      [...times].map(([name, ms]) => {
        const sorted = [...ms].sort((a, b) => a - b);
        return [name, { p50: percentile(sorted, 50), p95: percentile(sorted, 95), n: ms.length }];
      }),
    );
    line(`\none page of 50, ${samples} samples per filter (plus ${samples / 2} second pages)`);
    for (const [name, s] of stats)
      line(
        `${name.padEnd(28)} p50 ${s.p50.toFixed(2).padStart(7)} ms  p95 ${s.p95.toFixed(2).padStart(7)} ms  (${s.n})`,
      );
    const otherP95 = Object.keys(others)
      .map((k) => stats.get(k)!.p95)
      .sort((a, b) => a - b);
    const median = percentile(otherP95, 50);
    const slowest = otherP95[otherP95.length - 1]!;
    line(`\nother filters' p95: median ${median.toFixed(2)} ms, slowest ${slowest.toFixed(2)} ms`);
    for (const name of Object.keys(actors)) {
      const p95 = stats.get(name)!.p95;
      line(
        `${name.padEnd(28)} p95 ${p95.toFixed(2)} ms = ${(p95 / median).toFixed(2)}x the median, ${(p95 / slowest).toFixed(2)}x the slowest (goal <= 2x)`,
      );
    }
  } finally {
    await platform.stop();
  }
}

runBench(main);
