import { Worker } from 'node:worker_threads';

export interface LoadResult {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * A closed-loop load generator in a worker thread (so it does not share the event loop of the servers it measures):
 * `concurrency` keep-alive connections each sending the next GET when the last answered, for `seconds`.
 * Any status but 200 fails the run.
 */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, token, concurrency, seconds } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const target = new URL(url);
const latencies = [];
let failure = null;
function get() {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const req = http.get({ host: target.hostname, port: target.port, path: target.pathname + target.search, agent,
      headers: { authorization: 'Bearer ' + token } }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error('HTTP ' + res.statusCode + ' from ' + url));
        else resolve(Number(process.hrtime.bigint() - start) / 1e6);
      });
    });
    req.on('error', reject);
  });
}
async function loop(until) {
  while (Date.now() < until && !failure) latencies.push(await get());
}
const until = Date.now() + seconds * 1000;
const started = Date.now();
Promise.all(Array.from({ length: concurrency }, () => loop(until).catch((e) => { failure = e; })))
  .then(() => {
    agent.destroy();
    parentPort.postMessage({ latencies, elapsedMs: Date.now() - started, failure: failure && String(failure) });
  });
`;

export function runLoad(url: string, token: string, concurrency: number, seconds: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SOURCE, { eval: true, workerData: { url, token, concurrency, seconds } });
    worker.once('error', reject);
    worker.once('message', (m: { latencies: number[]; elapsedMs: number; failure: string | null }) => {
      void worker.terminate();
      if (m.failure) return reject(new Error(m.failure));
      const sorted = [...m.latencies].sort((a, b) => a - b);
      const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
      resolve({
        requests: sorted.length,
        perSecond: (sorted.length / m.elapsedMs) * 1000,
        p50Ms: at(50),
        p99Ms: at(99),
      });
    });
  });
}
