/**
 * Inbound image webhook figures (issue 12, Performance):
 *   npm run bench:webhook [-- --requests 1000 --rate 20 --workloads 10 --tenants 2 --steps 50,100,200 --step-requests 600
 *                             --apis 2 --direct false]
 * Starts the platform on embedded defaults (API and worker in this process, PostgreSQL and Temporal embedded), makes a
 * project of `workloads` workloads (one repository each) deployed to `tenants` tenants in one auto-update environment,
 * then sends signed shape A requests, each naming one workload's repository with a new tag:
 *   1. steady: `requests` requests at `rate` per second, round robin over the workloads: request -> its commit SHA
 *      (the 200 answer, or the status URL of a 202; the commit is then in the hosted repository), p50 and p95
 *      (goal p95 < 1 s);
 *   2. ramp: `step-requests` requests at each rate of `steps`: achieved requests per second and p95, to find the
 *      highest rate the machine sustains (goal >= 50/s);
 *   3. the floor, in the same run on the same disk: the bare one-file commit (the plumbing loop of bench/commits on a
 *      copy of the project's repository), and the steady p95 as a multiple of its p95 (issue 35 goal: <= 5x at 20/s),
 *      with the steps beside it: the image-update workflow's time in each activity, its queue and its workflow tasks,
 *      and from an update's signal to its commit (bench/temporal-steps.ts);
 * and checks after each phase that no update was lost (every answer committed or names the newer request that
 * superseded it; each workload's file at `main` holds the tag of a newest-signed request; the image.update audit
 * entries match the answers) and that no duplicate commit was made (one commit per distinct SHA, none empty).
 * By default each API process commits the updates it takes (WEBHOOK_DIRECT_COMMIT, issue 35); `--direct false` sends
 * every update through the project's image-update workflow, and prints that workflow's steps instead.
 * The requests are sent from a client process of its own (webhook-driver.ts), and the steady phase prints the CPU a
 * request costs in each process (bench/cpu-shares.ts).
 * Every port comes from settings (startBenchPlatform: free ports, the agent listener on port 0).
 * With `--apis 2` a second API process (`scripts/serve.ts api`, sharing the database, Temporal and data folder) takes
 * every other request (issue 34: no update lost or reordered whichever API took it), and each ramp step runs twice,
 * through the first API alone and through both, printing the ratio of completed rates.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { copyOf, plumbingLoop } from '../commits/floors';
import { startBenchPlatform } from '../validate/platform';
import { line, percentile } from '../validate/stats';
import { apiCaller } from '../api-call';
import { runBench } from '../run-bench';
import { cpuShares } from '../cpu-shares';
import { sendImageUpdates, type Sent } from './webhook-driver';
import { StepTimes } from '../temporal-steps';
import { startServeProcess } from '../serve-process';
import { imageUpdatesWorkflowId } from '../../src/webhooks/image-update-workflow-contract';

const run = promisify(execFile);

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
}

const describe = (label: string, ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  const p = (q: number) => percentile(sorted, q).toFixed(0).padStart(5);
  return `${label.padEnd(46)} p50 ${p(50)} ms   p95 ${p(95)} ms   max ${(sorted.at(-1) ?? NaN).toFixed(0).padStart(5)} ms`;
};

/** The bare one-file commit's latencies (ms, sorted) on a copy of `repo`, same disk, same run. */
async function bareCommitLatencies(repo: string): Promise<number[]> {
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-webhook-floor-'));
  try {
    const loop = await plumbingLoop(await copyOf(repo, path.join(work, 'floor.git')), 50);
    return [...loop.ms].sort((a, b) => a - b);
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const requests = Number(arg('requests', '1000'));
  const rate = Number(arg('rate', '20'));
  const workloadCount = Number(arg('workloads', '10'));
  const tenantCount = Number(arg('tenants', '2'));
  const steps = arg('steps', '50,100,200').split(',').map(Number);
  const stepRequests = Number(arg('step-requests', '600'));
  const apis = Number(arg('apis', '1'));
  const direct = arg('direct', 'true') !== 'false';
  const platform = await startBenchPlatform({ WEBHOOK_DIRECT_COMMIT: String(direct) }, { worker: true });
  const call = apiCaller(platform.baseUrl, platform.token);
  const others: Awaited<ReturnType<typeof startServeProcess>>[] = [];
  try {
    for (let i = 1; i < apis; i++) others.push(await startServeProcess('api', platform.joinEnv));
    const allUrls = [platform.baseUrl, ...others.map((o) => o.url)];
    let urls = allUrls;
    line(
      `API processes: ${allUrls.length} (requests round robin over them; one worker process); ` +
        (direct ? 'each commits the updates it takes (WEBHOOK_DIRECT_COMMIT)' : 'every update through the workflow'),
    );
    await call('POST', '/api/v2/org/environments', { slug: 'prod' });
    const project = await call<{ id: string; organizationId: string }>('POST', '/api/v2/projects', {
      slug: 'shop',
      name: 'Shop',
    });
    await call('POST', '/api/v2/projects/shop/environments', { environment: 'prod', kubernetesVersion: '1.29' });
    for (let t = 0; t < tenantCount; t++) {
      await call('POST', '/api/v2/projects/shop/tenants', { slug: `t${t}`, name: `T${t}` });
    }
    const workloads = Array.from({ length: workloadCount }, (_, i) => `w${i}`);
    for (const name of workloads) {
      await call('POST', '/api/v2/projects/shop/workloads', {
        name,
        image: { repository: `registry.example.com/shop/${name}`, tag: '1.0.0' },
        ports: [{ name: 'http', containerPort: 8080 }],
      });
    }
    await call('POST', '/api/v2/projects/shop/delivery/generate', {});
    const { secret } = await call<{ secret: string }>('PUT', '/api/v2/projects/shop/webhook-settings', {
      autoUpdateEnvironments: ['prod'],
      tagFilter: '^[0-9]+\\.[0-9]+\\.[0-9]+$',
    });
    const repo = platform.services.repositories.pathOf(project.organizationId, project.id);
    const git = async (...args: string[]) => (await run('git', ['-C', repo, ...args])).stdout.trim();
    line(
      `project: ${workloadCount} workloads (one repository each) x ${tenantCount} tenants, environment prod auto-updates`,
    );

    let serial = 0;
    /** Open loop from the client's own process: one request every 1000/perSecond ms whatever the answers. */
    const phase = async (count: number, perSecond: number) => {
      const cpu = cpuShares();
      const sent = await sendImageUpdates({ urls, secret, workloads, count, perSecond, after: serial });
      serial += count;
      return { ...sent, cpu: cpu.per(count) };
    };

    /** No update lost, no duplicate commit: what the answers, the repository and the audit log say agree. */
    const check = async (sent: Sent[], since: string) => {
      // Committed, or accepted with nothing to commit when newer requests of the same targets won them all.
      const failures = sent.filter((s) => !['committed', 'accepted'].includes(s.answer.status));
      const queued = sent.filter((s) => s.status === 202).length;
      const commits = new Set(sent.map((s) => s.answer.commit).filter((c): c is string => c !== null));
      const log = (await git('rev-list', `${since}..main`)).split('\n').filter(Boolean);
      const missing = [...commits].filter((c) => !log.includes(c));
      const empty = [];
      for (const sha of log)
        if ((await git('diff-tree', '--no-commit-id', '--name-only', '-r', sha)) === '') empty.push(sha);
      const accounted = sent.filter(
        (s) =>
          s.answer.updated.length + s.answer.skipped.filter((k) => k.reason === 'superseded').length === tenantCount,
      );
      let lost = 0;
      for (const workload of workloads) {
        const mine = sent.filter((s) => s.workload === workload);
        const newest = Math.max(...mine.map((s) => s.signedAt));
        const winners = new Set(mine.filter((s) => s.signedAt === newest).map((s) => s.tag));
        for (let t = 0; t < tenantCount; t++) {
          const file = await git('show', `main:tenants/t${t}/prod/${workload}/deployment.yaml`);
          const tag = /registry\.example\.com\/shop\/[^:]+:(\S+)/.exec(file)?.[1] ?? '';
          if (!winners.has(tag)) lost += 1;
        }
      }
      const updatedCount = sent.reduce((n, s) => n + s.answer.updated.length, 0);
      const entries = await platform.services
        .db('audit_log')
        .where({ action: 'image.update' })
        .whereIn('git_commit_sha', [...commits])
        .count<{ n: string }[]>('id as n');
      const audited = Number(entries[0]?.n ?? 0);
      line(
        `  answers: ${sent.length - failures.length}/${sent.length} committed or accepted (${queued} of them 202 first); commits: ${commits.size} ` +
          `(${(sent.length / Math.max(commits.size, 1)).toFixed(1)} requests per commit), ${log.length} on main since the phase began`,
      );
      line(
        `  no update lost: ${lost === 0 && accounted.length === sent.length && audited === updatedCount ? 'yes' : 'NO'} ` +
          `(final tags newest-signed: ${workloads.length * tenantCount - lost}/${workloads.length * tenantCount}; ` +
          `answers accounting for every target: ${accounted.length}/${sent.length}; image.update entries ${audited} = updated targets ${updatedCount})`,
      );
      line(
        `  no duplicate commit: ${missing.length === 0 && log.length === commits.size && empty.length === 0 ? 'yes' : 'NO'} ` +
          `(answered SHAs missing from main: ${missing.length}; commits on main not answered: ${log.length - commits.size + missing.length}; empty commits: ${empty.length})`,
      );
    };

    // Warm-up: the first commit of a process loads the workflow bundle's caches.
    await phase(1, 1);

    let since = await git('rev-parse', 'main');
    const steady = await phase(requests, rate);
    line(`steady: ${requests} requests at ${rate}/s over ${workloadCount} workloads (${steady.seconds.toFixed(1)} s)`);
    line(`  CPU a request: ${steady.cpu}, the client ${(steady.cpuMs / requests).toFixed(1)} ms`);
    line(
      describe(
        '  request -> commit SHA in the repository',
        steady.sent.map((s) => s.ms),
      ),
    );
    const p95 = percentile(
      steady.sent.map((s) => s.ms).sort((a, b) => a - b),
      95,
    );
    line(`  goal p95 < 1000 ms: ${p95 < 1000 ? 'met' : 'MISSED'} (peers poll every 2 to 5 minutes)`);
    const floor = await bareCommitLatencies(repo);
    line(describe('floor: bare one-file commit (plumbing loop)', floor));
    const ratio = p95 / percentile(floor, 95);
    line(
      `  webhook -> commit p95 ${ratio.toFixed(1)}x the bare one-file commit's p95 (goal <= 5x: ${ratio <= 5 ? 'met' : 'MISSED'})`,
    );
    if (direct) {
      const writers = await git('log', `${since}..main`, '--format=%(trailers:key=Audit-Workflow-Id,valueonly)');
      const byApi = writers.split('\n').filter((w) => w.startsWith('direct-')).length;
      const all = writers.split('\n').filter(Boolean).length;
      line(`  commits made by the API processes themselves: ${byApi} of ${all} (the rest by the project's workflow)`);
    } else {
      // Where the steady phase's time went (warm-up included), from the project's image-update workflow history.
      const stepTimes = new StepTimes();
      await stepTimes.addWorkflow(
        platform.services.temporal,
        imageUpdatesWorkflowId(project.id),
        'commitImageRequests',
      );
      stepTimes.print('steps of the image-update workflow (its history, warm-up and steady phase):');
    }
    await check(steady.sent, since);

    let best = { rate: 0, offered: 0, p95: 0 };
    const rampStep = async (perSecond: number, through: string[]) => {
      urls = through;
      since = await git('rev-parse', 'main');
      const step = await phase(stepRequests, perSecond);
      const sustained = stepRequests / step.seconds;
      const sorted = step.sent.map((s) => s.ms).sort((a, b) => a - b);
      line(
        `ramp: ${stepRequests} requests offered at ${perSecond}/s through ${through.length} API(s): ` +
          `${sustained.toFixed(1)} requests/s completed, p50 ${percentile(sorted, 50).toFixed(0)} ms, ` +
          `p95 ${percentile(sorted, 95).toFixed(0)} ms`,
      );
      await check(step.sent, since);
      if (sustained > best.rate) best = { rate: sustained, offered: perSecond, p95: percentile(sorted, 95) };
      return sustained;
    };
    for (const perSecond of steps) {
      const one = allUrls.length > 1 ? await rampStep(perSecond, [platform.baseUrl]) : null;
      const all = await rampStep(perSecond, allUrls);
      if (one !== null)
        line(`  ${allUrls.length} APIs vs one at ${perSecond}/s: ${(all / one).toFixed(2)}x completed rate`);
    }
    line(
      `highest completed rate: ${best.rate.toFixed(1)} requests/s (offered ${best.offered}/s, p95 ${best.p95.toFixed(0)} ms; ` +
        `goal >= 50/s: ${best.rate >= 50 ? 'met' : 'MISSED'}; peers poll every 2 to 5 minutes)`,
    );
  } finally {
    await Promise.all(others.map((other) => other.stop()));
    await platform.stop();
  }
}

runBench(main);
