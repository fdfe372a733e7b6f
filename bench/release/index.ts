/**
 * Release figures (issue 10, Performance):
 *   npm run bench:release [-- --releases 50 --rounds 5 --tenants 5 --environments 2 --parallel 10 --poll-ms 100
 *     --worker-process]
 * Starts the platform on embedded defaults (API and worker in this process, PostgreSQL and Temporal embedded; with
 * `--worker-process` the worker in a process of its own, `serve worker`, as the Helm chart deploys it), makes a
 * project of tenants x environments targets with one workload, then measures, its client in a process of its own
 * (release-driver.ts, as a platform's clients are):
 *   1. latency: releases without approval, one after another, from the create call to the commit: from its send to
 *      the row's `committed_at` (one machine, one clock: what the goals take), as the client sees it polling the
 *      release every `--poll-ms` (100 ms, a tenth of what the web UI and the CLI's --wait wait between polls: at
 *      10 ms the polls cost the API more CPU at load than the release did, docs/gitops.md), and from the row's
 *      `created_at`; p50 and p95 (goal p95 < 1 s on the dev server);
 *   2. throughput: the same number of releases, `parallel` at a time on different targets, each taken to Healthy with
 *      a sync report: releases completed per second;
 *   3. the floor: a workflow that returns at once, started and awaited through the same server and worker, as many
 *      after each of `--rounds` rounds of the sequential releases as the round had (issue 46: both under the same
 *      load), and the create -> commit p95 as a multiple of the floor's p95 (issue 35 goal: <= 3x on a quiet machine;
 *      issue 46: at load 10+ too);
 *   4. the CPU each costs in this process (API, worker and client), the Temporal server and PostgreSQL;
 *   5. the steps, beside the ratio: the sequential releases' time in each activity and in its queue, the workflow
 *      tasks, and up to the commit the time in activities against scheduling (bench/temporal-steps.ts).
 * Every port comes from settings (startBenchPlatform: free ports, the agent listener on port 0).
 */
import { randomUUID } from 'node:crypto';
import { pingWorkflow } from '../../workflows/proof';
import { startBenchPlatform } from '../validate/platform';
import { elapsedMs, line, percentile } from '../validate/stats';
import { apiCaller } from '../api-call';
import { runBench } from '../run-bench';
import { addWorkload, makeShopProject } from '../shop-project';
import { StepTimes } from '../temporal-steps';
import { cpuSpans } from '../cpu-shares';
import { driveReleases, type Driven } from './release-driver';
import { startServeProcess } from '../serve-process';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

const describe = (label: string, ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return `${label.padEnd(44)} p50 ${percentile(sorted, 50).toFixed(0).padStart(5)} ms   p95 ${percentile(sorted, 95)
    .toFixed(0)
    .padStart(5)} ms   max ${(sorted.at(-1) ?? NaN).toFixed(0).padStart(5)} ms`;
};

async function main(): Promise<void> {
  const releases = arg('releases', 50);
  const tenantCount = arg('tenants', 5);
  const environmentCount = arg('environments', 2);
  const parallel = arg('parallel', 10);
  const pollMs = arg('poll-ms', 100);
  const rounds = arg('rounds', 5);
  const workerProcess = process.argv.includes('--worker-process');
  const platform = await startBenchPlatform({ RELEASE_QUEUE_POLL: '1s' }, { worker: !workerProcess });
  const call = apiCaller(platform.baseUrl, platform.token);
  const worker = workerProcess ? await startServeProcess('worker', platform.joinEnv) : null;
  const named: Record<string, number> = worker ? { worker: worker.pid } : {};
  try {
    line(
      worker
        ? 'API in this process, the worker in its own (`serve worker`: the Helm chart topology)'
        : 'API and worker in this process (`npm start`)',
    );
    const { environments, tenants } = await makeShopProject(call, {
      environments: environmentCount,
      tenants: tenantCount,
    });
    await addWorkload(call, 'shop', 'web');
    const targets = tenants.flatMap((tenantId) => environments.map((environment) => ({ tenantId, environment })));
    line(`project: ${targets.length} targets (${tenantCount} tenants x ${environmentCount} environments), 1 workload`);

    // The client in a process of its own (release-driver.ts); each drive continues the tags of the one before.
    const job = { baseUrl: platform.baseUrl, token: platform.token, project: 'shop', workload: 'web' };
    let used = 0;
    const drive = async (count: number, lanes: number, on = targets) => {
      const driven = await driveReleases({ ...job, targets: on, count, lanes, after: used, pollMs });
      used += count;
      return driven;
    };

    // Warm-up: the first release of a process loads schemas and bundles.
    await drive(1, 1);

    const steps = new StepTimes();
    // The sequential releases in rounds, each followed by as many no-op workflows (the floor): both measured under the
    // same load, in the same minutes (issue 46), the floor's p95 from as many samples as the releases'.
    const releaseCpu = cpuSpans(named);
    const floorCpu = cpuSpans(named);
    const sequentialRounds = Math.min(rounds, releases);
    const floor: number[] = [];
    const drivenRounds: Driven[] = [];
    for (let round = 0; round < sequentialRounds; round++) {
      const count = Math.floor(releases / sequentialRounds) + (round < releases % sequentialRounds ? 1 : 0);
      releaseCpu.begin();
      drivenRounds.push(await drive(count, 1));
      releaseCpu.end();
      floorCpu.begin();
      for (let i = 0; i < count; i++) {
        const start = process.hrtime.bigint();
        const handle = await platform.services.workflows.start(pingWorkflow, {
          workflowId: `ping-${randomUUID()}`,
          args: [],
        });
        await handle.result();
        floor.push(elapsedMs(start));
      }
      floorCpu.end();
    }
    const driven = drivenRounds.flatMap((d) => d.releases);
    const commit = driven.map((r) => r.commitMs);
    const client = driven.map((r) => r.clientMs);
    const server = driven.map((r) => r.serverMs);
    const sequential = driven.map((r) => r.workflowId);
    const clientCpuMs = drivenRounds.reduce((sum, d) => sum + d.cpuMs, 0);
    line(`latency, ${releases} releases one after another, no approval (in ${sequentialRounds} rounds):`);
    line(describe('  create call sent -> committed_at', commit));
    line(describe(`  create call -> commit seen (poll ${pollMs} ms)`, client));
    line(describe('  created_at -> committed_at (row)', server));
    const p95Of = (ms: number[]) =>
      percentile(
        [...ms].sort((a, b) => a - b),
        95,
      );
    const p95 = p95Of(commit);
    line(`  goal p95 < 1000 ms: ${p95 < 1000 ? 'met' : 'MISSED'}`);
    line(describe('floor: no-op workflow start -> result (after each round)', floor));
    line(
      `CPU of a sequential release (to Healthy): ${releaseCpu.per(releases)}, its client ` +
        `${(clientCpuMs / releases).toFixed(1)} ms; of a no-op workflow: ${floorCpu.per(floor.length)}`,
    );
    const ratio = p95 / p95Of(floor);
    line(
      `create -> commit p95 ${ratio.toFixed(1)}x the no-op workflow round trip's p95 ` +
        `(goal <= 3x, quiet and, issue 46, at load 10+: ${ratio <= 3 ? 'met' : 'MISSED'})`,
    );

    const { seconds } = await drive(releases, parallel, targets.slice(0, parallel));
    line(
      `throughput, ${releases} releases ${parallel} at a time on different targets, each to Healthy: ` +
        `${(releases / seconds).toFixed(1)} releases/s (${seconds.toFixed(1)} s)`,
    );
    // Where the sequential releases' time went, from their workflow histories.
    for (const id of sequential) await steps.addWorkflow(platform.services.temporal, id, 'commitToRepository');
    steps.print('steps of the sequential releases (workflow histories):');
  } finally {
    await worker?.stop();
    await platform.stop();
  }
}

runBench(main);
