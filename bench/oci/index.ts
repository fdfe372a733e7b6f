/**
 * Registry figures (issue 18, Performance):
 *   npm run bench:oci [-- --mb 100 --pulls 100]
 * Starts the platform on embedded defaults (API in this process, PostgreSQL and Temporal embedded), then times: a
 * monolithic push of a random artifact of `--mb` MB streamed from disk and its pull streamed back to disk, beside a
 * plain stream copy of the same file on the same disk (curl is the client, so the RSS sampled in this process is the
 * API's); and `--pulls` concurrent pulls (manifest then blob) of a small chart with a registry token, p50/p95.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { startBenchPlatform } from '../validate/platform';
import { elapsedMs, line, percentile } from '../validate/stats';
import { runBench } from '../run-bench';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

const MB = 1024 * 1024;
const run = promisify(execFile);

/** Runs curl quietly and returns the HTTP status it got. */
async function curl(args: string[]): Promise<string> {
  const { stdout } = await run('curl', ['-s', '-w', '%{http_code}', ...args], {
    maxBuffer: 1024 * 1024,
  });
  return stdout.trim().slice(-3);
}

/** Peak RSS while `fn` runs, sampled every 20 ms. */
async function withPeakRss<T>(fn: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  try {
    return { result: await fn(), peakMb: peak / MB };
  } finally {
    clearInterval(timer);
  }
}

async function fileDigest(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return `sha256:${hash.digest('hex')}`;
}

async function main(): Promise<void> {
  const sizeMb = arg('mb', 100);
  const pulls = arg('pulls', 100);
  const platform = await startBenchPlatform();
  const auth = { authorization: `Basic ${Buffer.from(`token:${platform.token}`).toString('base64')}` };
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-oci-'));
  const repo = 'bench/artifacts/big';
  try {
    const source = path.join(work, 'artifact.bin');
    const out = await fs.open(source, 'w');
    for (let i = 0; i < sizeMb; i++) await out.write(randomBytes(MB));
    await out.close();
    const digest = await fileDigest(source);
    const rssBefore = process.memoryUsage.rss() / MB;

    const copyStart = process.hrtime.bigint();
    await pipeline(createReadStream(source), createWriteStream(path.join(work, 'copy.bin')));
    const copyMs = elapsedMs(copyStart);

    // curl is the client, in its own process: the RSS sampled here is the API's alone.
    const basic = `token:${platform.token}`;
    const push = await withPeakRss(async () => {
      const start = process.hrtime.bigint();
      const url = new URL(`/v2/${repo}/blobs/uploads?digest=${digest}`, platform.baseUrl).toString();
      const res = await curl([
        '-X',
        'POST',
        '-u',
        basic,
        '-H',
        'content-type: application/octet-stream',
        '-T',
        source,
        url,
      ]);
      if (res !== '201') throw new Error(`push: ${res}`);
      return elapsedMs(start);
    });
    const pull = await withPeakRss(async () => {
      const start = process.hrtime.bigint();
      const url = new URL(`/v2/${repo}/blobs/${digest}`, platform.baseUrl).toString();
      const res = await curl(['-u', basic, '-o', path.join(work, 'pulled.bin'), url]);
      if (res !== '200') throw new Error(`pull: ${res}`);
      return elapsedMs(start);
    });
    if ((await fileDigest(path.join(work, 'pulled.bin'))) !== digest) throw new Error('pulled bytes differ');
    const rate = (ms: number) => `${((sizeMb * 1000) / ms).toFixed(0).padStart(5)} MB/s (${ms.toFixed(0)} ms)`;
    line(`artifact: ${sizeMb} MB, process RSS before ${rssBefore.toFixed(0)} MB`);
    line(`plain stream copy on the same disk        ${rate(copyMs)}`);
    line(`push (monolithic POST, digest verified)   ${rate(push.result)}  peak RSS ${push.peakMb.toFixed(0)} MB`);
    line(`pull (GET blob, streamed to disk)         ${rate(pull.result)}  peak RSS ${pull.peakMb.toFixed(0)} MB`);

    const small = 'chart layer '.repeat(500);
    const smallDigest = `sha256:${createHash('sha256').update(small).digest('hex')}`;
    const chart = 'bench/charts/web';
    await fetch(new URL(`/v2/${chart}/blobs/uploads/?digest=${smallDigest}`, platform.baseUrl), {
      method: 'POST',
      headers: auth,
      body: small,
    });
    const empty = '{}';
    const emptyDigest = `sha256:${createHash('sha256').update(empty).digest('hex')}`;
    await fetch(new URL(`/v2/${chart}/blobs/uploads/?digest=${emptyDigest}`, platform.baseUrl), {
      method: 'POST',
      headers: auth,
      body: empty,
    });
    const manifest = JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.empty.v1+json', digest: emptyDigest, size: 2 },
      layers: [{ mediaType: 'application/octet-stream', digest: smallDigest, size: small.length }],
    });
    const put = await fetch(new URL(`/v2/${chart}/manifests/1.0.0`, platform.baseUrl), {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/vnd.oci.image.manifest.v1+json' },
      body: manifest,
    });
    if (put.status !== 201) throw new Error(`manifest: ${put.status} ${await put.text()}`);
    const tokenRes = await fetch(new URL(`/v2/token?scope=repository:${chart}:pull`, platform.baseUrl), {
      headers: auth,
    });
    const bearer = { authorization: `Bearer ${((await tokenRes.json()) as { token: string }).token}` };
    const one = async () => {
      const start = process.hrtime.bigint();
      const m = await fetch(new URL(`/v2/${chart}/manifests/1.0.0`, platform.baseUrl), { headers: bearer });
      await m.arrayBuffer();
      const b = await fetch(new URL(`/v2/${chart}/blobs/${smallDigest}`, platform.baseUrl), { headers: bearer });
      await b.arrayBuffer();
      if (m.status !== 200 || b.status !== 200) throw new Error(`pull ${m.status} ${b.status}`);
      return elapsedMs(start);
    };
    await one();
    const all = process.hrtime.bigint();
    const latencies = (await Promise.all(Array.from({ length: pulls }, one))).sort((a, b) => a - b);
    const wall = elapsedMs(all);
    line(
      `${pulls} concurrent small pulls (manifest + blob)  p50 ${percentile(latencies, 50).toFixed(0)} ms  ` +
        `p95 ${percentile(latencies, 95).toFixed(0)} ms  max ${latencies[latencies.length - 1]!.toFixed(0)} ms  ` +
        `wall ${wall.toFixed(0)} ms`,
    );
  } finally {
    await fs.rm(work, { recursive: true, force: true });
    await platform.stop();
  }
}

runBench(main);
