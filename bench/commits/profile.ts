/**
 * Where a one-file commit's time goes (issue 46), on the platform's own commit path:
 *   npm run bench:commit-profile [-- --commits 200 --writers 1]
 * Runs `commits` one-file writes through runCommit, `writers` at a time (1: one after another; more: the passes of
 * several writes that concurrent writers make), and splits each into its PostgreSQL round trips
 * (every query the knex pool sends, with its duration, from knex's query events) and the rest (git objects and refs on
 * disk, and JavaScript); prints the per-commit figures and the queries by statement shape, slowest first.
 */
import { randomUUID } from 'node:crypto';
import { commitPathDepsOf, runCommit } from '../../src/gitops/commit-path';
import { commitOperationKinds } from '../../src/runtime/commit-operations';
import { apiCaller } from '../api-call';
import { runBench } from '../run-bench';
import { startBenchPlatform } from '../validate/platform';
import { elapsedMs, line, percentile } from '../validate/stats';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

/** A statement's shape: its SQL with literals and bindings out, to group the queries of every commit. */
const shapeOf = (sql: string) =>
  sql
    .replace(/\s+/g, ' ')
    .replace(/'[^']*'/g, '?')
    .replace(/\$\d+/g, '?')
    .slice(0, 110);

async function main(): Promise<void> {
  const commits = arg('commits', 200);
  const writers = arg('writers', 1);
  const platform = await startBenchPlatform({}, { worker: false });
  try {
    const s = platform.services;
    const deps = commitPathDepsOf(s, commitOperationKinds());
    const { id: projectId } = await apiCaller(platform.baseUrl, platform.token)<{ id: string }>(
      'POST',
      '/api/v2/projects',
      { slug: 'profile', name: 'profile' },
    );
    const org = (await s.db('organizations').where({ slug: 'bench' }).first('id')) as { id: string };
    const write = (i: number) => {
      const key = randomUUID();
      return runCommit(deps, {
        organizationId: org.id,
        projectId,
        idempotencyKey: key,
        workflowId: `profile-${key}`,
        message: 'profile',
        actor: { userId: null, actorType: 'system', actor: 'bench', email: null, requestId: null },
        operation: { type: 'files', writes: [{ path: `p/${i}.md`, content: `${i}\n` }], deletes: [] },
      });
    };
    for (let i = 0; i < 20; i++) await write(-1 - i); // warm-up: caches, prepared paths, the JIT

    const started = new Map<string, { at: bigint; shape: string }>();
    const byShape = new Map<string, { count: number; ms: number }>();
    let dbMs = 0;
    let queries = 0;
    s.db.on('query', (q: { __knexQueryUid: string; sql: string }) =>
      started.set(q.__knexQueryUid, { at: process.hrtime.bigint(), shape: shapeOf(q.sql) }),
    );
    const done = (_r: unknown, q: { __knexQueryUid: string }) => {
      const begun = started.get(q.__knexQueryUid);
      if (!begun) return;
      started.delete(q.__knexQueryUid);
      const ms = elapsedMs(begun.at);
      dbMs += ms;
      queries += 1;
      const entry = byShape.get(begun.shape) ?? { count: 0, ms: 0 };
      byShape.set(begun.shape, { count: entry.count + 1, ms: entry.ms + ms });
    };
    s.db.on('query-response', done);
    s.db.on('query-error', (_e: unknown, q: { __knexQueryUid: string }) => done(null, q));

    const each: number[] = [];
    const all = process.hrtime.bigint();
    let next = 0;
    await Promise.all(
      Array.from({ length: writers }, async () => {
        for (let i = next++; i < commits; i = next++) {
          const one = process.hrtime.bigint();
          await write(i);
          each.push(elapsedMs(one));
        }
      }),
    );
    const total = elapsedMs(all);
    const sorted = [...each].sort((a, b) => a - b);
    line(
      `${commits} one-file commits through runCommit, ${writers === 1 ? 'one after another' : `${writers} writers at a time`}`,
    );
    line(
      `  per commit: ${(total / commits).toFixed(2)} ms (p50 ${percentile(sorted, 50).toFixed(2)}, p95 ${percentile(sorted, 95).toFixed(2)})`,
    );
    line(`  PostgreSQL: ${(queries / commits).toFixed(1)} queries, ${(dbMs / commits).toFixed(2)} ms per commit`);
    line(
      `  the rest (git objects and refs on disk, JavaScript): ${((total - dbMs) / commits).toFixed(2)} ms per commit`,
    );
    line('  queries per commit by shape (count, ms), slowest first:');
    for (const [shape, v] of [...byShape].sort((a, b) => b[1].ms - a[1].ms)) {
      line(
        `    ${(v.count / commits).toFixed(1).padStart(4)}  ${(v.ms / commits).toFixed(2).padStart(6)} ms  ${shape}`,
      );
    }
  } finally {
    await platform.stop();
  }
}

runBench(main);
