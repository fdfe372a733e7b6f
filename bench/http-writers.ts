/**
 * The benches' HTTP client in a process of its own (issue 46): a platform's clients are other processes, so the
 * client's own work (fetch, JSON) must not share the API process's event loop it measures. The parent forks this file
 * (`httpCalls`, bench/child-job.ts); the child makes the calls `writers` at a time and reports calls per second and
 * each call's latency.
 */
import { apiCaller } from './api-call';
import { answerJobs, runInChild } from './child-job';
import { elapsedMs } from './validate/stats';

interface Job {
  baseUrl: string;
  token: string;
  method: string;
  route: string;
  bodies: unknown[];
  writers: number;
}

export interface CallFigures {
  perSecond: number;
  ms: number[];
}

async function run(job: Job): Promise<CallFigures> {
  const call = apiCaller(job.baseUrl, job.token);
  const ms: number[] = [];
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: job.writers }, async () => {
      for (let i = next++; i < job.bodies.length; i = next++) {
        const one = process.hrtime.bigint();
        await call(job.method, job.route, job.bodies[i]);
        ms.push(elapsedMs(one));
      }
    }),
  );
  return { perSecond: job.bodies.length / (elapsedMs(start) / 1000), ms };
}

/** Makes one call per body, `writers` at a time, from a child process. */
export function httpCalls(job: Job): Promise<CallFigures> {
  return runInChild(__filename, job, 'HTTP client');
}

answerJobs(run);
