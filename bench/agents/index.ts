/**
 * Agent figures (issue 14, Performance):
 *   npm run bench:agents [-- --agents 500 --interval 10 --duration 60 --window 300]
 * Starts the platform on embedded defaults (API with its gRPC listener and the worker in this process, PostgreSQL and
 * Temporal embedded), registers `agents` clusters over HTTP, then runs that many reference agents in a child process
 * (so this process's CPU is the API's and the worker's alone), each heartbeating every `interval` seconds with random
 * phase. Reports heartbeat latency, CPU and memory of the API+worker process over the steady-state period, and the
 * Temporal actions (workflow starts, signals, timers, activities) recorded per heartbeat, from the workflows' histories.
 */
import { fork } from 'node:child_process';
import { AgentClient } from '../../src/agent/agent-client';
import { freePort } from '../../src/net/free-port';
import { clusterHeartbeatWorkflowId } from '../../src/clusters/cluster-workflow-contract';
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
  durationMs: number;
}
interface AgentsResult {
  latenciesMs: number[];
  /** When each successful heartbeat was answered (ms since the epoch). */
  answeredAtMs: number[];
  failures: number;
  /** When every agent had sent its first heartbeat (ms since the epoch): the steady state starts there. */
  steadyFromMs: number;
}

/** The child: every agent registers, then heartbeats with a random phase until the duration is over. */
async function runAgents(job: AgentsJob): Promise<AgentsResult> {
  const clients = job.joinTokens.map(() => new AgentClient({ server: job.server }));
  for (const [i, client] of clients.entries()) await client.register(job.joinTokens[i]!);
  const facts = { kubernetesVersion: 'v1.31.2', agentVersion: 'bench', controllerHealth: 'Healthy' };
  const latenciesMs: number[] = [];
  const answeredAtMs: number[] = [];
  let failures = 0;
  let first = 0;
  let steadyFromMs = 0;
  const end = Date.now() + job.durationMs;
  await Promise.all(
    clients.map(async (client) => {
      await new Promise((r) => setTimeout(r, Math.random() * job.intervalMs));
      let sent = 0;
      while (Date.now() < end) {
        const start = process.hrtime.bigint();
        try {
          await client.heartbeat(facts);
          latenciesMs.push(elapsedMs(start));
          answeredAtMs.push(Date.now());
        } catch {
          failures += 1;
        }
        if (sent++ === 0 && ++first === clients.length) steadyFromMs = Date.now();
        await new Promise((r) => setTimeout(r, job.intervalMs));
      }
    }),
  );
  clients.forEach((c) => c.close());
  return { latenciesMs, answeredAtMs, failures, steadyFromMs };
}

if (process.argv[2] === '--child') {
  process.once('message', (job: AgentsJob) => {
    void runAgents(job).then((result) => process.send!(result, () => process.exit(0)));
  });
} else {
  runBench(main);
}

/** p50 and p95 of the server's own heartbeat handling, as the upper bounds of the histogram's buckets. */
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
    line(`${agents} clusters registered; agents heartbeat every ${intervalMs / 1000} s for ${durationMs / 1000} s`);

    const child = fork(__filename, ['--child'], { stdio: 'inherit' });
    const done = new Promise<AgentsResult>((resolve) => child.once('message', (m) => resolve(m as AgentsResult)));
    child.send({
      server: `127.0.0.1:${grpcPort}`,
      joinTokens: clusters.map((c) => c.joinToken),
      intervalMs,
      durationMs,
    } satisfies AgentsJob);
    // CPU and memory of this process (API + worker) sampled each second; kept from the steady state on.
    const samples: { atMs: number; cpu: NodeJS.CpuUsage; rss: number }[] = [];
    const sampler = setInterval(
      () => samples.push({ atMs: Date.now(), cpu: process.cpuUsage(), rss: process.memoryUsage().rss }),
      1000,
    );
    const result = await done;
    clearInterval(sampler);

    const sorted = [...result.latenciesMs].sort((a, b) => a - b);
    line(
      `heartbeats: ${sorted.length} ok, ${result.failures} failed; latency p50 ${percentile(sorted, 50).toFixed(1)} ms, ` +
        `p95 ${percentile(sorted, 95).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, ` +
        `max ${(sorted[sorted.length - 1] ?? NaN).toFixed(1)} ms`,
    );
    line(`server-side heartbeat handling (agent_call_duration_seconds): ${await serverSide(platform.services)}`);
    const steady = samples.filter((s) => s.atMs >= result.steadyFromMs);
    const a = steady[0];
    const b = steady[steady.length - 1];
    if (a && b && b.atMs > a.atMs) {
      const cpuMs = (b.cpu.user + b.cpu.system - a.cpu.user - a.cpu.system) / 1000;
      const rssMb = Math.max(...steady.map((s) => s.rss)) / 2 ** 20;
      line(
        `API + worker process, steady state (${((b.atMs - a.atMs) / 1000).toFixed(0)} s): CPU ` +
          `${((cpuMs / (b.atMs - a.atMs)) * 100).toFixed(1)}% of one core, peak RSS ${rssMb.toFixed(0)} MB`,
      );
    }

    // Temporal actions from the heartbeat workflows' histories: all of them, and those of the steady state (from a
    // few seconds after every agent's first heartbeat, once the connect edges' activities and first timers are done).
    const steadyFromMs = result.steadyFromMs + 5000;
    const counted = { started: 0, signals: 0, timers: 0, activities: 0, steadySignals: 0, steadyOther: 0 };
    for (const c of clusters) {
      const history = await platform.services.temporal.workflow
        .getHandle(clusterHeartbeatWorkflowId(c.id))
        .fetchHistory();
      for (const event of history.events ?? []) {
        const atMs = Number(event.eventTime?.seconds ?? 0) * 1000;
        const steadyEvent = atMs >= steadyFromMs;
        if (event.workflowExecutionStartedEventAttributes) counted.started += 1;
        if (event.workflowExecutionSignaledEventAttributes) {
          counted.signals += 1;
          if (steadyEvent) counted.steadySignals += 1;
        }
        if (event.timerStartedEventAttributes) counted.timers += 1;
        if (event.activityTaskScheduledEventAttributes) counted.activities += 1;
        if (steadyEvent && (event.timerStartedEventAttributes || event.activityTaskScheduledEventAttributes)) {
          counted.steadyOther += 1;
        }
      }
    }
    const total = counted.started + counted.signals + counted.timers + counted.activities;
    line(
      `Temporal actions: ${counted.started} starts, ${counted.signals} signals, ${counted.timers} timers, ` +
        `${counted.activities} activities = ${(total / sorted.length).toFixed(3)} per heartbeat over the run ` +
        `(the first heartbeat of each cluster is its Disconnected -> Connected edge)`,
    );
    const steadyBeats = result.answeredAtMs.filter((t) => t >= steadyFromMs).length;
    line(
      `steady state: ${counted.steadySignals} signals and ${counted.steadyOther} timers/activities for ` +
        `${steadyBeats} heartbeats = ${((counted.steadySignals + counted.steadyOther) / Math.max(1, steadyBeats)).toFixed(3)} per heartbeat`,
    );
  } finally {
    await platform.stop();
  }
}
