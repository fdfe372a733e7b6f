/**
 * Agent figures (issue 14, Performance):
 *   npm run bench:agents [-- --agents 500 --interval 10 --duration 60 --window 300]
 * Starts the platform on embedded defaults (API with its gRPC listener and the worker in this process, PostgreSQL and
 * Temporal embedded), registers `agents` clusters over HTTP, then runs that many reference agents in a child process
 * (so this process's CPU is the API's and the worker's alone), each heartbeating every `interval` seconds with random
 * phase. Warm-up: until every cluster is Connected (each first heartbeat is a Disconnected -> Connected edge: a signal,
 * a workflow start, an activity with its audit entry). Then, for `duration` seconds of steady state: heartbeat latency
 * at the agent and inside the server, CPU and memory of the API+worker process, and the Temporal actions (workflow
 * starts, signals, timers, activities) per heartbeat, counted from the heartbeat workflows' histories.
 */
import { fork } from 'node:child_process';
import { AgentClient } from '../../src/agent/agent-client';
import { clusterHeartbeatWorkflowId } from '../../src/clusters/cluster-workflow-contract';
import { freePort } from '../../src/net/free-port';
import type { Services } from '../../src/runtime/services';
import { runBench } from '../run-bench';
import { startBenchPlatform } from '../validate/platform';
import { elapsedMs, line, percentile } from '../validate/stats';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

interface AgentsJob {
  server: string;
  joinTokens: string[];
  intervalMs: number;
}
interface AgentsResult {
  latenciesMs: number[];
  /** When each heartbeat was answered or failed (ms since the epoch), in the order of `latenciesMs` / `failedAtMs`. */
  answeredAtMs: number[];
  failedAtMs: number[];
}

/** The child: every agent registers, then heartbeats with a random phase until the parent says stop. */
async function runAgents(job: AgentsJob): Promise<AgentsResult> {
  const clients = job.joinTokens.map(() => new AgentClient({ server: job.server }));
  for (const [i, client] of clients.entries()) await client.register(job.joinTokens[i]!);
  const facts = { kubernetesVersion: 'v1.31.2', agentVersion: 'bench', controllerHealth: 'Healthy' };
  const result: AgentsResult = { latenciesMs: [], answeredAtMs: [], failedAtMs: [] };
  let stopped = false;
  process.once('message', () => (stopped = true));
  await Promise.all(
    clients.map(async (client) => {
      await new Promise((r) => setTimeout(r, Math.random() * job.intervalMs));
      while (!stopped) {
        const start = process.hrtime.bigint();
        try {
          await client.heartbeat(facts);
          result.latenciesMs.push(elapsedMs(start));
          result.answeredAtMs.push(Date.now());
        } catch {
          result.failedAtMs.push(Date.now());
        }
        await new Promise((r) => setTimeout(r, job.intervalMs));
      }
    }),
  );
  clients.forEach((c) => c.close());
  return result;
}

if (process.argv[2] === '--child') {
  process.once('message', (job: AgentsJob) => {
    void runAgents(job).then((result) => process.send!(result, () => process.exit(0)));
  });
} else {
  runBench(main);
}

/** p50, p95 and p99 of the server's own heartbeat handling, as the upper bounds of the histogram's buckets. */
async function serverSide(services: Pick<Services, 'metrics'>): Promise<string> {
  const { values } = await services.metrics.agentCallDuration.get();
  const buckets = values
    .filter((v) => v.metricName?.endsWith('_bucket') && v.labels.method === 'heartbeat' && v.labels.code === 'OK')
    .map((v) => ({ le: Number((v.labels as Record<string, unknown>).le), count: v.value }))
    .sort((a, b) => a.le - b.le);
  const total = buckets[buckets.length - 1]?.count ?? 0;
  const bound = (p: number) => buckets.find((b) => b.count >= (p / 100) * total)?.le ?? NaN;
  return `${total} calls, p50 <= ${bound(50) * 1000} ms, p95 <= ${bound(95) * 1000} ms, p99 <= ${bound(99) * 1000} ms`;
}

/** Temporal actions recorded by the heartbeat workflows from `fromMs` on. */
async function temporalActions(services: Pick<Services, 'temporal'>, clusterIds: string[], fromMs: number) {
  const counted = { starts: 0, signals: 0, timers: 0, activities: 0 };
  for (const id of clusterIds) {
    const history = await services.temporal.workflow.getHandle(clusterHeartbeatWorkflowId(id)).fetchHistory();
    for (const event of history.events ?? []) {
      if (Number(event.eventTime?.seconds ?? 0) * 1000 < fromMs) continue;
      if (event.workflowExecutionStartedEventAttributes) counted.starts += 1;
      if (event.workflowExecutionSignaledEventAttributes) counted.signals += 1;
      if (event.timerStartedEventAttributes) counted.timers += 1;
      if (event.activityTaskScheduledEventAttributes) counted.activities += 1;
    }
  }
  return counted;
}

async function main(): Promise<void> {
  const agents = arg('agents', 500);
  const intervalMs = arg('interval', 10) * 1000;
  const durationMs = arg('duration', 60) * 1000;
  const windowS = arg('window', 300);
  const grpcPort = await freePort();
  const platform = await startBenchPlatform(
    { AGENT_GRPC_PORT: String(grpcPort), AGENT_DISCONNECT_AFTER: `${windowS}s`, DATABASE_POOL_MAX: '20' },
    { worker: true },
  );
  try {
    const call = async <T>(route: string, body?: unknown) => {
      const res = await fetch(new URL(route, platform.baseUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${platform.token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`${route}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };
    const clusters: { id: string; joinToken: string }[] = [];
    for (let i = 0; i < agents; i++) {
      const { id } = await call<{ id: string }>('/api/v2/clusters', { name: `bench-${i}` });
      clusters.push({ id, ...(await call<{ joinToken: string }>(`/api/v2/clusters/${id}/join-token`)) });
    }
    line(`${agents} clusters; agents heartbeat every ${intervalMs / 1000} s; window ${windowS} s`);

    const child = fork(__filename, ['--child'], { stdio: 'inherit' });
    const done = new Promise<AgentsResult>((resolve) => child.once('message', (m) => resolve(m as AgentsResult)));
    const job: AgentsJob = {
      server: `127.0.0.1:${grpcPort}`,
      joinTokens: clusters.map((c) => c.joinToken),
      intervalMs,
    };
    child.send(job);
    const warmup = process.hrtime.bigint();
    const db = platform.services.db;
    for (;;) {
      const [row] = (await db('clusters').where({ status: 'Connected' }).count('* as n')) as { n: string }[];
      if (Number(row?.n) === agents) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    line(
      `warm-up: all ${agents} clusters Connected ${(elapsedMs(warmup) / 1000).toFixed(1)} s after the agents started`,
    );

    // Steady state: from here on, for `duration`.
    const steadyFromMs = Date.now();
    platform.services.metrics.agentCallDuration.reset();
    const cpuStart = process.cpuUsage();
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 1000);
    await new Promise((r) => setTimeout(r, durationMs));
    const cpu = process.cpuUsage(cpuStart);
    const steadyToMs = Date.now();
    clearInterval(sampler);
    const server = await serverSide(platform.services);
    child.send('stop');
    const result = await done;

    const inSteady = (t: number) => t >= steadyFromMs && t <= steadyToMs;
    const latencies = result.latenciesMs.filter((_, i) => inSteady(result.answeredAtMs[i]!)).sort((a, b) => a - b);
    const failures = result.failedAtMs.filter(inSteady).length;
    line(
      `steady state ${(durationMs / 1000).toFixed(0)} s: ${latencies.length} heartbeats ` +
        `(${(latencies.length / (durationMs / 1000)).toFixed(1)}/s), ${failures} failed; at the agent p50 ` +
        `${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, ` +
        `p99 ${percentile(latencies, 99).toFixed(1)} ms`,
    );
    line(`server-side heartbeat handling (agent_call_duration_seconds): ${server}`);
    const cpuPercent = ((cpu.user + cpu.system) / 1000 / durationMs) * 100;
    line(
      `API + worker process: CPU ${cpuPercent.toFixed(1)}% of one core, peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MB`,
    );
    const actions = await temporalActions(
      platform.services,
      clusters.map((c) => c.id),
      steadyFromMs,
    );
    const total = actions.starts + actions.signals + actions.timers + actions.activities;
    line(
      `Temporal actions in the steady state: ${actions.starts} starts, ${actions.signals} signals, ` +
        `${actions.timers} timers, ${actions.activities} activities = ` +
        `${(total / Math.max(1, latencies.length)).toFixed(4)} per heartbeat`,
    );
  } finally {
    await platform.stop();
  }
}
