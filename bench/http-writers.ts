/**
 * The benches' HTTP client in a process of its own (issue 46): a platform's clients are other processes, so the
 * client's own work (fetch, JSON) must not share the API process's event loop it measures. The parent forks this file
 * (`httpCalls`); the child makes the calls `writers` at a time and reports calls per second and each call's latency.
 */
import { fork } from 'node:child_process';
import { apiCaller } from './api-call';
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
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ['--child'], { stdio: 'inherit' });
    child.once('message', (answer: { figures?: CallFigures; error?: string }) =>
      answer.figures ? resolve(answer.figures) : reject(new Error(answer.error)),
    );
    child.once('exit', (code) => reject(new Error(`the HTTP client process exited with ${code}`)));
    child.send(job);
  });
}

if (process.argv[2] === '--child') {
  process.once('message', (job: Job) => {
    run(job).then(
      (figures) => process.send?.({ figures }, () => process.exit(0)),
      (err: unknown) => process.send?.({ error: String(err) }, () => process.exit(1)),
    );
  });
}
