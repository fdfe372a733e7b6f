/**
 * bench:release's client in a process of its own (issue 46), as bench/http-writers.ts is bench:commits': a platform's
 * clients are other processes, so the client's work (a poll of the release every `pollMs`, fetch, JSON) must not share
 * the event loop of the API and worker it measures. The parent forks this file (`driveReleases`, bench/child-job.ts);
 * the child takes `count` releases to Healthy, `lanes` at a time: one lane goes round the targets, several keep one
 * target each.
 */
import { apiCaller } from '../api-call';
import { answerJobs, runInChild } from '../child-job';
import { elapsedMs } from '../validate/stats';
import { releaseClient, type Target } from './release-client';

interface Job {
  baseUrl: string;
  token: string;
  project: string;
  workload: string;
  targets: Target[];
  count: number;
  lanes: number;
  /** Tags already used on these targets (the 1.0.N of earlier drives). */
  after: number;
  /** How often the client asks for the release until its commit. */
  pollMs: number;
}

export interface Driven {
  /**
   * Each release: create call -> commit seen by the client, the create call's send -> committed_at (one clock),
   * created_at -> committed_at, its workflow.
   */
  releases: { clientMs: number; commitMs: number; serverMs: number; workflowId: string }[];
  seconds: number;
  /** The client process's CPU (user + system) over the drive. */
  cpuMs: number;
}

async function drive(job: Job): Promise<Driven> {
  const driver = await releaseClient(job.baseUrl, apiCaller(job.baseUrl, job.token), job.after, job.pollMs);
  const releases: Driven['releases'] = [];
  let next = 0;
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: job.lanes }, async (_, lane) => {
      for (let i = next++; i < job.count; i = next++) {
        const target = job.lanes === 1 ? job.targets[i % job.targets.length]! : job.targets[lane]!;
        const { clientMs, commitMs, serverMs, r } = await driver.release(job.project, job.workload, target);
        releases.push({ clientMs, commitMs, serverMs, workflowId: r.workflowId });
        await driver.healthy(job.project, job.workload, r);
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { releases, seconds: elapsedMs(start) / 1000, cpuMs: (used.user + used.system) / 1000 };
}

/** Takes `count` releases to Healthy from a child process, `lanes` at a time. */
export function driveReleases(job: Job): Promise<Driven> {
  return runInChild(__filename, job, 'release client');
}

answerJobs(drive);
