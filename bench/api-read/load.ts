import { spawn } from 'node:child_process';

export interface LoadResult {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * A closed-loop load generator in a child process (so it shares neither the event loop nor the CPU account of the
 * servers it measures): `concurrency` keep-alive connections each sending the next GET when the last answered, for
 * `seconds`. Any status but 200 fails the run.
 */
const SOURCE = `
const http = require('node:http');
const { url, token, concurrency, seconds } = JSON.parse(process.argv[1]);
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
    process.send({ latencies, elapsedMs: Date.now() - started, failure: failure && String(failure) }, () => process.exit(0));
  });
`;

export function runLoad(url: string, token: string, concurrency: number, seconds: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', SOURCE, JSON.stringify({ url, token, concurrency, seconds })], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('error', reject);
    child.once('exit', (code) => code !== 0 && reject(new Error(`load generator exited with ${code}`)));
    child.once('message', (m: { latencies: number[]; elapsedMs: number; failure: string | null }) => {
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
