/**
 * Event-loop health under the worst inputs of issue 25 (docs/security.md A-60 to A-66):
 *   npm run bench:hostile [-- --rounds 20]
 * Starts the platform on embedded defaults (API in this process), samples `GET /healthz` every 25 ms, first idle, then
 * while `--rounds` rounds of hostile requests run back to back: a 77-byte chart with a negative tar size pushed and the
 * chart listing read, a kustomization of 100,000 `[` then `]`, recurring freezes on 30 February and the freeze
 * listing, a JSON body nested 1,000,000 deep, lone surrogates and NUL in bodies. Prints /healthz p50/p95/max for both
 * phases and the status codes the hostile requests got (every one must be a 4xx).
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { startBenchPlatform } from '../validate/platform';
import { line, percentile } from '../validate/stats';
import { runBench } from '../run-bench';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

const sha = (data: Buffer | string) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

/** A tar header whose size field is negative, gzipped: 77 bytes that once made the chart listing loop forever. */
function negativeSizeChart(): Buffer {
  const header = Buffer.alloc(512);
  header.write('evil/Chart.yaml', 0);
  header.write('0000644', 100);
  header.write('-0000001000', 124);
  header.write('00000000000', 136);
  header.write('0', 156);
  header.write('ustar\u000000', 257);
  header.fill(' ', 148, 156);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148);
  return gzipSync(Buffer.concat([header, Buffer.alloc(1024)]), { level: 9 });
}

/** Samples GET /healthz every 25 ms until stopped; latencies in ms. */
function sampleHealth(baseUrl: string) {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${baseUrl}/healthz`).then((r) => r.arrayBuffer());
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return latencies.sort((a, b) => a - b);
    },
  };
}

const figures = (label: string, sorted: number[]) =>
  line(
    `${label}: ${sorted.length} samples, p50 ${percentile(sorted, 50).toFixed(1)} ms, ` +
      `p95 ${percentile(sorted, 95).toFixed(1)} ms, max ${(sorted[sorted.length - 1] ?? 0).toFixed(1)} ms`,
  );

async function main(): Promise<void> {
  const rounds = arg('rounds', 20);
  const platform = await startBenchPlatform();
  try {
    const bearer = { authorization: `Bearer ${platform.token}`, 'content-type': 'application/json' };
    const basic = { authorization: `Basic ${Buffer.from(`token:${platform.token}`).toString('base64')}` };
    const statuses = new Map<string, Map<number, number>>();
    const slowest = new Map<string, number>();
    const call = async (what: string, path: string, init: RequestInit) => {
      const started = performance.now();
      const res = await fetch(`${platform.baseUrl}${path}`, init);
      await res.arrayBuffer();
      slowest.set(what, Math.max(slowest.get(what) ?? 0, performance.now() - started));
      const counts = statuses.get(what) ?? new Map<number, number>();
      counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
      statuses.set(what, counts);
    };

    const idle = sampleHealth(platform.baseUrl);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    figures('/healthz idle', await idle.stop());

    const chart = negativeSizeChart();
    const config = JSON.stringify({ name: 'evil', version: '0.1.0', apiVersion: 'v2' });
    const deepYaml = `resources: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`;
    const deepJson = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
    const loaded = sampleHealth(platform.baseUrl);
    const started = performance.now();
    for (let round = 0; round < rounds; round++) {
      const repo = `/v2/bench/charts/evil${round}`;
      await fetch(`${platform.baseUrl}${repo}/blobs/uploads/?digest=${sha(config)}`, {
        method: 'POST',
        headers: basic,
        body: config,
      });
      await fetch(`${platform.baseUrl}${repo}/blobs/uploads/?digest=${sha(chart)}`, {
        method: 'POST',
        headers: basic,
        body: chart,
      });
      await call('chart push, negative tar size', `${repo}/manifests/0.1.0`, {
        method: 'PUT',
        headers: { ...basic, 'content-type': 'application/vnd.oci.image.manifest.v1+json' },
        body: JSON.stringify({
          schemaVersion: 2,
          mediaType: 'application/vnd.oci.image.manifest.v1+json',
          config: { mediaType: 'application/vnd.cncf.helm.config.v1+json', digest: sha(config), size: config.length },
          layers: [
            {
              mediaType: 'application/vnd.cncf.helm.chart.content.v1.tar+gzip',
              digest: sha(chart),
              size: chart.length,
            },
          ],
        }),
      });
      await call('chart listing', '/api/v2/org-charts', { headers: bearer });
      await call('kustomization 100k [ then ]', '/api/v2/org-kustomize-bases', {
        method: 'POST',
        headers: bearer,
        body: JSON.stringify({
          name: 'deep',
          version: `1.0.${round}`,
          kubernetesVersion: '1.29',
          files: { 'kustomization.yaml': deepYaml },
        }),
      });
      await call('freeze on 30 February', '/api/v2/freezes', {
        method: 'POST',
        headers: bearer,
        body: JSON.stringify({
          name: `feb30-${round}`,
          reason: 'x',
          rrule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30',
          timeZone: 'UTC',
          durationMinutes: 60,
        }),
      });
      await call('freeze listing', '/api/v2/freezes', { headers: bearer });
      await call('JSON nested 1,000,000 deep', '/api/v2/projects', { method: 'POST', headers: bearer, body: deepJson });
      await call('lone surrogate in a body', '/api/v2/projects', {
        method: 'POST',
        headers: bearer,
        body: '{"slug":"s","name":"\\ud800"}',
      });
      await call('NUL in a webhook body', '/api/v1/webhooks/image-update', {
        method: 'POST',
        headers: bearer,
        body: '{"a":"\u0000"}',
      });
    }
    const seconds = (performance.now() - started) / 1000;
    figures(`/healthz under ${rounds} hostile rounds (${seconds.toFixed(1)} s)`, await loaded.stop());
    for (const [what, counts] of statuses) {
      const answers = [...counts].map(([status, n]) => `${n} x ${status}`).join(', ');
      line(`  ${what}: ${answers}, slowest ${(slowest.get(what) ?? 0).toFixed(0)} ms`);
    }
  } finally {
    await platform.stop();
  }
}

runBench(main);
