import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { exited } from './child-process';
import { eventually, freePort } from './net';

/** A counter family the exporter serves, one series per label set. */
export interface Exporter {
  /** `host:port`, what Prometheus scrapes. */
  target: string;
  /** Raises the counter `name{labels}` by `by` (a new label set starts at 0). */
  inc(name: string, labels: Record<string, string>, by?: number): void;
  close(): Promise<void>;
}

const labelText = (labels: Record<string, string>) =>
  Object.entries(labels)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`)
    .join(',');

/**
 * Request traffic per tenant on `exporter`, ten times a second: `http_requests_total{tenant, code="200"}` rises by 10 a
 * tick and `{code="500"}` by the tenant's entry in `errorsPerTick` (a test raises it to make a tenant fail). Answers
 * the function that stops it.
 */
export function tenantTraffic(exporter: Exporter, errorsPerTick: Record<string, number>): () => void {
  const tick = () => {
    for (const [tenant, errors] of Object.entries(errorsPerTick)) {
      exporter.inc('http_requests_total', { tenant, code: '200' }, 10);
      exporter.inc('http_requests_total', { tenant, code: '500' }, errors);
    }
  };
  tick();
  const timer = setInterval(tick, 100);
  return () => clearInterval(timer);
}

/**
 * A small HTTP exporter the test controls: `GET /metrics` answers its counters in the Prometheus text exposition
 * format (version 0.0.4), so a real Prometheus scrapes what the test raised.
 */
export async function startExporter(): Promise<Exporter> {
  const counters = new Map<string, Map<string, number>>();
  const server = http.createServer((req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    const lines: string[] = [];
    for (const [name, series] of counters) {
      lines.push(`# TYPE ${name} counter`);
      for (const [labels, value] of series) lines.push(`${name}{${labels}} ${value}`);
    }
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(`${lines.join('\n')}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    target: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    inc(name, labels, by = 1) {
      const series = counters.get(name) ?? new Map<string, number>();
      counters.set(name, series);
      const key = labelText(labels);
      series.set(key, (series.get(key) ?? 0) + by);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface RunningPrometheus {
  /** Base URL of its HTTP API (`/api/v1/query` below it). */
  url: string;
  port: number;
  /** The value of an instant query's single series, or null while there is none. */
  query(promql: string): Promise<number | null>;
  close(): Promise<void>;
}

/** How many targets were scraped up at least twice in the last minute. */
const SCRAPED_TWICE = 'count(count_over_time(up[1m]) >= 2 and up == 1)';

/**
 * Debian's Prometheus (`/usr/bin/prometheus`, scripts/ensure-test-tools.sh) on a free loopback port, with a scratch
 * configuration scraping `targets` every `scrapeSeconds` and its storage in a temporary folder removed by `close`.
 * Resolves once it answers ready and has scraped every target twice.
 */
export async function startPrometheus(opts: { targets: string[]; scrapeSeconds?: number }): Promise<RunningPrometheus> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prometheus-'));
  const interval = `${opts.scrapeSeconds ?? 1}s`;
  const config = [
    'global:',
    `  scrape_interval: ${interval}`,
    `  evaluation_interval: ${interval}`,
    'scrape_configs:',
    '  - job_name: exporter',
    '    static_configs:',
    `      - targets: [${opts.targets.map((t) => `'${t}'`).join(', ')}]`,
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'prometheus.yml'), config);
  const port = await freePort();
  const child = spawn(
    '/usr/bin/prometheus',
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let output = '';
  child.stderr.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const done = exited(child);
      child.kill('SIGTERM');
      await done;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`prometheus exited ${child.exitCode}: ${output}`);
        if ((await fetch(`${url}/-/ready`)).status !== 200) return false;
        // Ready is not scraped: Prometheus applies its targets on a 5 s tick, so the first samples come about 7 s
        // after ready, and a rate() needs two of them. A check measured before then met "no sample" (issue 51).
        const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(SCRAPED_TWICE)}`);
        const answer = (await res.json()) as { data?: { result?: { value: [number, string] }[] } };
        return Number(answer.data?.result?.[0]?.value[1] ?? 0) === opts.targets.length;
      },
      30_000,
      'prometheus ready, every target scraped twice',
    );
  } catch (err) {
    await close();
    throw err;
  }
  return {
    url,
    port,
    async query(promql) {
      const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const body = (await res.json()) as { data?: { result?: { value: [number, string] }[] } };
      const [first] = body.data?.result ?? [];
      return first ? Number(first.value[1]) : null;
    },
    close,
  };
}
