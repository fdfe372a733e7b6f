import { fork } from 'node:child_process';

/**
 * A bench's client work in a process of its own (issue 46: a platform's clients are other processes, so their fetch and
 * JSON must not share the event loop of the API they measure). `runInChild(file, job)` forks `file` (a module that
 * calls `answerJobs`) and resolves with what its `run` answered for `job`.
 */
export function runInChild<Job, Result>(file: string, job: Job, what: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = fork(file, ['--child'], { stdio: 'inherit' });
    child.once('message', (answer: { result?: Result; error?: string }) =>
      answer.error === undefined ? resolve(answer.result as Result) : reject(new Error(answer.error)),
    );
    child.once('exit', (code) => reject(new Error(`the ${what} process exited with ${code}`)));
    child.send(job as object);
  });
}

/** In the forked child (`--child`): runs the one job the parent sends, answers, and exits. */
export function answerJobs<Job, Result>(run: (job: Job) => Promise<Result>): void {
  if (process.argv[2] !== '--child') return;
  process.once('message', (job: Job) => {
    run(job).then(
      (result) => process.send?.({ result }, () => process.exit(0)),
      (err: unknown) => process.send?.({ error: String(err) }, () => process.exit(1)),
    );
  });
}
