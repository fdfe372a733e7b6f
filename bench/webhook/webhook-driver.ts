/**
 * bench:webhook's client in a process of its own (issue 46), as bench/release/release-driver.ts is bench:release's: a
 * CI sending image updates is another process, so its signing, fetch and JSON must not share the event loop of the
 * API it measures. The parent forks this file (`sendImageUpdates`, bench/child-job.ts); the child sends `count` signed
 * shape A requests at `perSecond` (open loop: one every 1000/perSecond ms whatever the answers), round robin over the
 * workloads and the API URLs, each with a new tag, and answers each request's latency to its commit.
 */
import { answerJobs, runInChild } from '../child-job';
import { shapeAHeaders } from '../image-webhook';
import { elapsedMs } from '../validate/stats';

export interface Answer {
  status: string;
  commit: string | null;
  updated: { workload: string; tenant: string; environment: string; tag: string }[];
  skipped: { workload?: string; reason: string }[];
}

export interface Sent {
  workload: string;
  tag: string;
  signedAt: number;
  ms: number;
  status: number;
  answer: Answer;
}

interface Job {
  urls: string[];
  secret: string;
  workloads: string[];
  count: number;
  perSecond: number;
  /** Requests sent before this job: the serial of its first tag (2.<serial>.0) and of its first URL. */
  after: number;
}

export interface SentPhase {
  sent: Sent[];
  seconds: number;
  /** The client process's CPU (user + system) over the phase. */
  cpuMs: number;
}

const DIGEST = `sha256:${'ab'.repeat(32)}`;

async function send(job: Job, serial: number, workload: string): Promise<Sent> {
  const tag = `2.${serial}.0`;
  const signedAt = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({
    repository: `shop/${workload}`,
    tag,
    registry: 'registry.example.com',
    digest: DIGEST,
  });
  const headers = shapeAHeaders(job.secret, body, signedAt);
  const start = process.hrtime.bigint();
  const baseUrl = job.urls[serial % job.urls.length]!;
  const res = await fetch(new URL('/api/v1/webhooks/image-update', baseUrl), { method: 'POST', headers, body });
  let answer = (await res.json()) as Answer & { statusUrl?: string };
  if (res.status === 202 && answer.statusUrl) {
    // Queued past WEBHOOK_COMMIT_WAIT: the commit is visible when the status URL says so.
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      const status = (await (await fetch(new URL(answer.statusUrl, baseUrl))).json()) as {
        status: string;
        result: Answer;
      };
      if (status.status === 'committed' || status.status === 'failed') {
        answer = status.result;
        break;
      }
    }
  }
  return { workload, tag, signedAt, ms: elapsedMs(start), status: res.status, answer };
}

async function phase(job: Job): Promise<SentPhase> {
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const pending: Promise<Sent>[] = [];
  for (let i = 0; i < job.count; i++) {
    const wait = (i * 1000) / job.perSecond - elapsedMs(started);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(send(job, job.after + i + 1, job.workloads[i % job.workloads.length]!));
  }
  const sent = await Promise.all(pending);
  const used = process.cpuUsage(cpu);
  return { sent, seconds: elapsedMs(started) / 1000, cpuMs: (used.user + used.system) / 1000 };
}

/** Sends a phase of signed image updates from a child process. */
export function sendImageUpdates(job: Job): Promise<SentPhase> {
  return runInChild(__filename, job, 'webhook client');
}

answerJobs(phase);
