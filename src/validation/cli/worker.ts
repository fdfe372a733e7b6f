import { parentPort, workerData } from 'node:worker_threads';
import { createValidator } from './setup';
import { validateSource, type SourceEvent } from './validate-source';
import { fromWorkerArgs, type FromWorker, type ToWorker, type WorkerData } from './worker-protocol';

/** Events go back in batches: one message per resource would cost more than validating it. */
const BATCH = 256;

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('cli/worker runs as a worker thread');
  const data = workerData as WorkerData;
  const args = fromWorkerArgs(data.args);
  const validatorFor = await createValidator(args, data.base);
  const post = (message: FromWorker): void => port.postMessage(message);
  let queue = Promise.resolve();
  port.on('message', ({ index, source }: ToWorker) => {
    queue = queue.then(async () => {
      try {
        let batch: SourceEvent[] = [];
        for await (const event of validateSource(source, validatorFor(source), args)) {
          batch.push(event);
          if (batch.length >= BATCH) {
            post({ index, events: batch });
            batch = [];
          }
        }
        post({ index, events: batch });
        post({ index, done: true });
      } catch (error) {
        post({ index, failure: error instanceof Error ? error.message : String(error) });
      }
    });
  });
  post({ index: -1, done: true });
}

void main();
