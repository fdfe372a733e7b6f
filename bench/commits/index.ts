/**
 * Commit path figures against their floors, measured in the same run on the same disk (issue 35):
 *   npm run bench:commits [-- --files 5000 --commits 100 --writers 20 --history 50000]
 * Starts the platform on embedded defaults (every port from settings, the agent listener on a free one), fills a
 * project's repository with `files` files, then prints commits per second of:
 *   - the floors, on copies of the same repository: one `git fast-import` of the same number of one-file commits, in
 *     every round between the platform's figures (the physical floor every ratio is against), and the 5-process
 *     plumbing loop in shell (a secondary reference, and the bare one-file commit for latencies);
 *   - the one commit path (runCommit: lock, records, audit entries, git), one writer and `writers` concurrent ones;
 *   - the whole write over HTTP (route, authorization, commit in the API process), from a client process of its own
 *     (bench/http-writers.ts), one writer (latency p50/p95 against the bare one-file commit of the plumbing loop) and
 *     `writers` concurrent ones;
 *   - the commit path on a repository with `history` commits against the fresh one.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { commitPathDepsOf, runCommit, type CommitPathDeps, type CommitRequest } from '../../src/gitops/commit-path';
import { commitOperationKinds } from '../../src/runtime/commit-operations';
import { readBranch } from '../../src/git/commit-writer';
import { apiCaller } from '../api-call';
import { httpCalls } from '../http-writers';
import { runBench } from '../run-bench';
import { startBenchPlatform } from '../validate/platform';
import { elapsedMs, line, percentile } from '../validate/stats';
import { copyOf, fastImport, growHistory, plumbingLoop } from './floors';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

/** A figure of commits/s, with its share of a floor measured in the same run (`floor.name` for the label). */
const rate = (label: string, perSecond: number, floor?: { name: string; perSecond: number }) =>
  line(
    `${label.padEnd(52)} ${perSecond.toFixed(1).padStart(8)} commits/s` +
      (floor === undefined
        ? ''
        : `   ${((100 * perSecond) / floor.perSecond).toFixed(1).padStart(5)}% of ${floor.name}` +
          ` (1/${(floor.perSecond / perSecond).toFixed(1)})`),
  );
const latency = (label: string, ms: number[], floorP95?: number) => {
  const sorted = [...ms].sort((a, b) => a - b);
  const p95 = percentile(sorted, 95);
  line(
    `${label.padEnd(52)} p50 ${percentile(sorted, 50).toFixed(1).padStart(7)} ms   p95 ${p95.toFixed(1).padStart(7)} ms` +
      (floorP95 === undefined ? '' : `   p95 ${(p95 / floorP95).toFixed(1)}x the bare one-file commit`),
  );
};

/** `count` calls of `fn`, `writers` at a time: calls per second. */
async function concurrently(count: number, writers: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < count) await fn(next++);
    }),
  );
  return count / (elapsedMs(start) / 1000);
}

async function main(): Promise<void> {
  const files = arg('files', 5000);
  const commits = arg('commits', 100);
  const writers = arg('writers', 20);
  const history = arg('history', 50_000);
  const platform = await startBenchPlatform({ DATABASE_POOL_MAX: String(writers + 10) }, { worker: true });
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-commits-'));
  try {
    const call = apiCaller(platform.baseUrl, platform.token);
    const s = platform.services;
    const deps: CommitPathDeps = commitPathDepsOf(s, commitOperationKinds());
    const org = (await s.db('organizations').where({ slug: 'bench' }).first('id')) as { id: string };
    const request = (projectId: string, writes: { path: string; content: string }[]): CommitRequest => {
      const key = randomUUID();
      return {
        organizationId: org.id,
        projectId,
        idempotencyKey: key,
        workflowId: `bench-${key}`,
        message: 'bench',
        actor: { userId: null, actorType: 'system', actor: 'bench', email: null, requestId: null },
        operation: { type: 'files', writes, deletes: [] },
      };
    };
    const project = async (slug: string) => {
      const { id } = await call<{ id: string }>('POST', '/api/v2/projects', { slug, name: slug });
      const seed = Array.from({ length: files }, (_, i) => ({ path: `seed/d${i % 50}/f${i}.md`, content: `${i}\n` }));
      await runCommit(deps, request(id, seed));
      return { id, repo: s.repositories.pathOf(org.id, id) };
    };
    const fresh = await project('fresh');
    const old = await project('history');
    line(`repositories of ${files} files; ${commits} commits per figure, ${writers} concurrent writers`);

    const loop = await plumbingLoop(await copyOf(fresh.repo, path.join(work, 'floor.git')), commits);
    const floorP95 = percentile(
      [...loop.ms].sort((a, b) => a - b),
      95,
    );
    const plumbing = { name: 'the plumbing loop', perSecond: loop.perSecond };
    rate('floor (secondary): 5-process plumbing loop (shell)', loop.perSecond);
    latency('floor: bare one-file commit (plumbing loop)', loop.ms);

    // The physical floor: one `git fast-import` of the same number of one-file commits, on a copy of the same
    // repository, measured in every round between the platform's own figures so the machine's load moves all alike.
    const fiRepo = await copyOf(fresh.repo, path.join(work, 'fi.git'));
    const floorRates: number[] = [];
    const floorRound = async () => floorRates.push(await fastImport(fiRepo, commits));
    let n = 0;
    const oneFile = (id: string) => () => runCommit(deps, request(id, [{ path: `w/${n++}.md`, content: `${n}\n` }]));
    const spent = { one: 0, many: 0 };
    const batch = Math.max(writers, Math.floor(commits / 5));
    for (let done = 0; done < commits; done += batch) {
      await floorRound();
      spent.one += batch / (await concurrently(batch, 1, oneFile(fresh.id)));
      spent.many += batch / (await concurrently(batch, writers, oneFile(fresh.id)));
    }
    const sequential = commits / spent.one;
    const concurrent = commits / spent.many;

    const puts = (from: number, writers: number) =>
      httpCalls({
        baseUrl: platform.baseUrl,
        token: platform.token,
        method: 'PUT',
        route: '/api/v2/projects/fresh/files/content',
        bodies: Array.from({ length: commits }, (_, i) => ({
          path: `h/${from + i}.md`,
          content: `${i}\n`,
          message: 'http',
        })),
        writers,
      });
    await floorRound();
    const { perSecond: http1, ms } = await puts(0, 1);
    await floorRound();
    const { perSecond: httpMany } = await puts(commits, writers);
    await floorRound();

    const fi = {
      name: 'fast-import',
      perSecond: percentile(
        [...floorRates].sort((a, b) => a - b),
        50,
      ),
    };
    rate(`floor: one git fast-import of ${commits} commits (median of ${floorRates.length})`, fi.perSecond);
    rate('commit path (runCommit), 1 writer (interleaved)', sequential, fi);
    rate(`commit path (runCommit), ${writers} writers (interleaved)`, concurrent, fi);
    line(`  goal: ${writers} writers in-process >= 20% of fast-import (1/5)`);
    line(`  ${writers} writers: ${(concurrent / sequential).toFixed(2)}x the commits/s of 1 writer`);
    rate('HTTP write (route + commit), 1 writer', http1, fi);
    rate(`HTTP write, ${writers} writers`, httpMany, fi);
    line(`  goal: ${writers} writers over HTTP >= 10% of fast-import (1/10)`);
    latency('HTTP write -> commit, 1 writer', ms, floorP95);
    line('  goal: HTTP write p95 <= 3x the bare one-file commit');
    rate(`commit path, ${writers} writers, against the plumbing loop`, concurrent, plumbing);

    // A long history: the commit path must not look at it (keys and the head are in PostgreSQL).
    const grow = process.hrtime.bigint();
    await growHistory(old.repo, history);
    const tip = await readBranch(old.repo);
    if (!tip) throw new Error('no branch after the history was written');
    await s.db('git_commits').insert({
      organization_id: org.id,
      project_id: old.id,
      idempotency_key: 'history',
      sha: tip,
      parent_sha: null,
    });
    line(`history of ${history} commits written in ${(elapsedMs(grow) / 1000).toFixed(1)} s`);
    // Interleaved rounds, so the machine's load moves both figures alike.
    const seconds = { fresh: 0, old: 0 };
    const round = Math.max(1, Math.floor(commits / 10));
    for (let r = 0; r < commits; r += round) {
      seconds.fresh += round / (await concurrently(round, 1, oneFile(fresh.id)));
      seconds.old += round / (await concurrently(round, 1, oneFile(old.id)));
    }
    const fresh2 = commits / seconds.fresh;
    const longHistory = commits / seconds.old;
    rate('commit path, 1 writer, fresh repository (interleaved)', fresh2);
    rate(`commit path, 1 writer, ${history} commits of history`, longHistory);
    line(`  history cost: ${((100 * (fresh2 - longHistory)) / fresh2).toFixed(1)}% slower than fresh (goal <= 10%)`);
  } finally {
    await fs.rm(work, { recursive: true, force: true });
    await platform.stop();
  }
}

runBench(main);
