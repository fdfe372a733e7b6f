/**
 * Event-loop health under the worst inputs of issue 25 (docs/security.md A-60 to A-66):
 *   npm run bench:hostile [-- --rounds 20]
 * Starts the platform on embedded defaults (API in this process), samples `GET /healthz` every 25 ms, first idle, then
 * while `--rounds` rounds of hostile requests run back to back: a 77-byte chart with a negative tar size pushed and the
 * chart listing read, a kustomization of 100,000 `[` then `]`, recurring freezes on 30 February and the freeze
 * listing, a JSON body nested 1,000,000 deep, lone surrogates and NUL in bodies. Prints /healthz p50/p95/max for both
 * phases and the status codes the hostile requests got (every one must be a 4xx). Then four concurrent previews of a
 * project whose workload renders the repeat chart `{{ len (repeat 1500000000 "a") }}` (issue 42 M1), `--previews`
 * rounds of them: /healthz p50/p95/max meanwhile (goal p95 < 100 ms), their status codes, and helm's peak RSS per run
 * (helm run under `/usr/bin/time` through HELM_PATH) beside the renderer's memory cap `RENDER_MEMORY_MIB`.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { startBenchPlatform } from '../validate/platform';
import { line, percentile } from '../validate/stats';
import { runBench } from '../run-bench';
import { measuredHelm, repeatChartProject } from './helm-renders';

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
  const previews = arg('previews', 3);
  const helm = await measuredHelm();
  const platform = await startBenchPlatform({ HELM_PATH: helm.helmPath });
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

    /** The status codes and slowest answer of each kind of request since the last report. */
    const report = () => {
      for (const [what, counts] of statuses) {
        const answers = [...counts].map(([status, n]) => `${n} x ${status}`).join(', ');
        line(`  ${what}: ${answers}, slowest ${(slowest.get(what) ?? 0).toFixed(0)} ms`);
      }
      statuses.clear();
      slowest.clear();
    };

    const idle = sampleHealth(platform.baseUrl);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    figures('/healthz idle', await idle.stop());

    /** Pushes a chart archive as `helm push` does: its config and layer blobs, then the manifest. */
    const pushChart = async (repo: string, name: string, chart: Buffer) => {
      const config = JSON.stringify({ name, version: '0.1.0', apiVersion: 'v2' });
      for (const blob of [config, chart]) {
        await fetch(`${platform.baseUrl}${repo}/blobs/uploads/?digest=${sha(blob)}`, {
          method: 'POST',
          headers: basic,
          body: blob,
        });
      }
      return {
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
      };
    };
    const chart = negativeSizeChart();
    const deepYaml = `resources: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`;
    const deepJson = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
    const loaded = sampleHealth(platform.baseUrl);
    const started = performance.now();
    for (let round = 0; round < rounds; round++) {
      const repo = `/v2/bench/charts/evil${round}`;
      await call('chart push, negative tar size', `${repo}/manifests/0.1.0`, await pushChart(repo, 'evil', chart));
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
    report();

    await repeatChartProject(platform.baseUrl, platform.token, async (archive) => {
      const repo = '/v2/bench/charts/repeat';
      const res = await fetch(`${platform.baseUrl}${repo}/manifests/0.1.0`, await pushChart(repo, 'repeat', archive));
      if (res.status !== 201) throw new Error(`repeat chart push: ${res.status} ${await res.text()}`);
    });
    const rendering = sampleHealth(platform.baseUrl);
    const renderStart = performance.now();
    for (let round = 0; round < previews; round++) {
      await Promise.all(
        [0, 1, 2, 3].map(() =>
          call('preview of the repeat chart', '/api/v2/projects/shop/delivery/preview', { headers: bearer }),
        ),
      );
    }
    const renderSeconds = (performance.now() - renderStart) / 1000;
    figures(
      `/healthz during ${previews} x 4 concurrent repeat-chart previews (${renderSeconds.toFixed(1)} s)`,
      await rendering.stop(),
    );
    report();
    const peaks = helm.peaksKiB();
    const capKiB = platform.services.config.registry.renderers.memoryMiB * 1024;
    line(
      `  helm runs: ${peaks.length}, peak RSS max ${Math.max(0, ...peaks).toLocaleString('en')} KiB ` +
        `(cap RENDER_MEMORY_MIB ${capKiB.toLocaleString('en')} KiB of address space): ${peaks.join(', ')}`,
    );
  } finally {
    await platform.stop();
  }
}

runBench(main);
