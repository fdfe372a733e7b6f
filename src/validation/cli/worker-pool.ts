import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Channel } from './channel';
import type { Source } from './sources';
import type { SourceEvent } from './validate-source';
import type { FromWorker, ToWorker, WorkerData } from './worker-protocol';

/**
 * Worker threads (cli/worker.ts) that validate whole files, each with its own engine, for --workers N. Files
 * are handed out in input order to whichever worker is free, no further ahead of the file being printed
 * than `window`, so results wait in memory for a few files at most.
 */
export class WorkerPool {
  private readonly workers: Worker[];
  private readonly idle: Worker[] = [];
  private readonly pending: ToWorker[] = [];
  private readonly channels = new Map<number, Channel<SourceEvent>>();
  private head = 0;

  constructor(
    size: number,
    data: WorkerData,
    private readonly window: number,
  ) {
    const script = path.join(__dirname, 'worker.js');
    this.workers = Array.from({ length: size }, () => {
      const worker = new Worker(script, { workerData: data });
      worker.on('message', (message: FromWorker) => this.onMessage(worker, message));
      worker.on('error', (error) => this.failAll(error));
      return worker;
    });
  }

  /** Queues a file; its events arrive, in order, through the returned iterable. */
  submit(index: number, source: Source): AsyncIterable<SourceEvent> {
    const channel = new Channel<SourceEvent>();
    this.channels.set(index, channel);
    this.pending.push({ index, source });
    this.dispatch();
    return channel;
  }

  /** The consumer is now printing file `index`. */
  reached(index: number): void {
    this.head = index;
    this.dispatch();
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private dispatch(): void {
    for (;;) {
      const next = this.pending[0];
      if (!next || next.index >= this.head + this.window) return;
      const worker = this.idle.pop();
      if (!worker) return;
      this.pending.shift();
      worker.postMessage(next);
    }
  }

  private onMessage(worker: Worker, message: FromWorker): void {
    const channel = this.channels.get(message.index);
    if ('events' in message) {
      channel?.push(message.events);
      return;
    }
    if (channel) {
      channel.close('failure' in message ? new Error(message.failure) : undefined);
      this.channels.delete(message.index);
    }
    this.idle.push(worker);
    this.dispatch();
  }

  private failAll(error: Error): void {
    for (const channel of this.channels.values()) channel.close(error);
    this.channels.clear();
  }
}
