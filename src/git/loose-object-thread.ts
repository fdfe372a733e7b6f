import { Worker } from 'node:worker_threads';

/** A loose object to write: its final path (`objects/<2>/<38>`) and its deflated bytes. */
export interface LooseFile {
  file: string;
  data: Buffer;
}

/*
 * The thread's code, plain JavaScript (it runs outside the TypeScript toolchain, as src/freezes/recurrence-budget.ts's
 * does). Each file the way git writes a loose object: skipped when present, written to a temporary file in its folder
 * (made when missing), read-only, then renamed into place; a failed write removes its temporary file (a full disk
 * must not leave a partial one behind on the volume, issue 43). Every file of a request is tried; the first failure
 * is the answer, with the error's code.
 */
const SOURCE = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
function writeOne({ file, data }) {
  if (fs.existsSync(file)) return;
  const dir = path.dirname(file);
  const temp = path.join(dir, 'tmp_obj_' + randomBytes(6).toString('hex'));
  try {
    try {
      fs.writeFileSync(temp, data, { mode: 0o444 });
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(temp, data, { mode: 0o444 });
    }
    fs.renameSync(temp, file);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err;
  }
}
parentPort.on('message', ({ id, files }) => {
  let failure = null;
  for (const f of files) {
    try {
      writeOne(f);
    } catch (err) {
      failure = failure || { message: String(err && err.message), code: err && err.code, syscall: err && err.syscall };
    }
  }
  parentPort.postMessage({ id, failure });
});
`;

interface Failure {
  message: string;
  code?: string;
  syscall?: string;
}

let thread: { worker: Worker; pending: Map<number, (failure: Error | null) => void> } | null = null;
let nextId = 0;

function started() {
  if (thread) return thread;
  const worker = new Worker(SOURCE, { eval: true });
  // It keeps nothing alive: a process that has nothing else to do exits with it idle.
  worker.unref();
  const pending = new Map<number, (failure: Error | null) => void>();
  const own = { worker, pending };
  const fail = (err: Error) => {
    if (thread === own) thread = null;
    for (const settle of pending.values()) settle(err);
    pending.clear();
  };
  worker.on('message', ({ id, failure }: { id: number; failure: Failure | null }) => {
    const settle = pending.get(id);
    pending.delete(id);
    settle?.(failure && Object.assign(new Error(failure.message), { code: failure.code, syscall: failure.syscall }));
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the loose object thread exited (code ${code})`)));
  thread = own;
  return own;
}

/**
 * Starts the thread before the first write needs it: a thread takes about 40 ms to start (measured on the 2-core
 * machines), which the first commit of a process would otherwise wait out. It keeps nothing alive (see `started`).
 */
export function startLooseObjectThread(): void {
  started();
}

/**
 * Writes loose objects on a thread of their own (issue 46): one message there and one back for a commit's files,
 * where writing each through the thread pool took four event-loop turns a file (open, write, close, rename), which
 * at load waited behind every other request's work. The thread starts at the first write and is restarted when it
 * dies; the files are copied to it, so the caller's buffers stay its own.
 */
export function writeLooseFiles(files: LooseFile[]): Promise<void> {
  if (files.length === 0) return Promise.resolve();
  const { worker, pending } = started();
  const id = nextId++;
  return new Promise<void>((resolve, reject) => {
    pending.set(id, (failure) => (failure ? reject(failure) : resolve()));
    worker.ref();
    worker.postMessage({ id, files });
  }).finally(() => {
    if (pending.size === 0 && thread?.worker === worker) worker.unref();
  });
}
