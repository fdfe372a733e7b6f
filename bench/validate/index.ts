/**
 * Validation benchmark:
 *   npm run bench:validate [-- --version 1.29] [--base-url URL --token T] [--no-kubernetes-validate] [--no-http]
 *   npm run bench:validate -- --startup [--rounds 15]   (start-up only, against `node -e 0`: startup.ts)
 * Without --base-url the HTTP figures come from a platform started here on embedded defaults; --no-http skips them.
 *
 * Builds a 10,000-resource manifest from the corpus, then prints:
 * - in-process throughput of one validate() call over the whole file (one core: the engine is synchronous);
 * - p50/p99 latency of in-process validate() calls of 100 resources;
 * - the compiled delivery-validate command (cliFigures): start-up on a one-document file, and wall time and
 *   peak memory on 1, 10,000, 40,000 and 100,000 resources;
 * - the same 10,000-resource file through kubernetes-validate (PyPI, in .venv-bench), and the ratio;
 * - with --base-url and --token, the same 100-resource latencies over HTTP (measureHttp).
 * Targets (issue 4): >= 5,000 resources/s in-process, p99 < 50 ms for 100 resources.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ValidationEngine } from '../../src/validation';
import { CLI } from '../../test/tooling/helpers/built-cli';
import { cliFigures } from './cli-figures';
import { startupFigures } from './startup';
import { buildManifest, corpusDocuments } from './corpus-file';
import { measureHttp } from './http';
import { startBenchPlatform } from './platform';
import { kubernetesValidateBinary, timeProcess } from './kubernetes-validate';
import { elapsedMs, line, summarize } from './stats';
import { runBench } from '../run-bench';

const RESOURCES = 10_000;
const PER_CALL = 100;

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

async function main(): Promise<void> {
  const version = flag('--version') ?? '1.29';
  if (process.argv.includes('--startup')) return startupFigures(version, Number(flag('--rounds') ?? 15), line);
  const docs = corpusDocuments();
  const manifest = buildManifest(docs, RESOURCES);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-validate-')), `corpus-${RESOURCES}.yaml`);
  fs.writeFileSync(file, manifest);
  line(
    `manifest: ${RESOURCES} resources from ${docs.length} corpus documents, ${(manifest.length / 1e6).toFixed(1)} MB -> ${file}`,
  );
  const load = os.loadavg()[0]?.toFixed(2) ?? '?';
  line(
    `node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length}, load ${load}, Kubernetes ${version}`,
  );

  // The whole file in one call needs the per-request caps raised; everything else is as the API runs it.
  const engine = new ValidationEngine({
    limits: { maxBytes: 64 * 1024 * 1024, maxDocuments: 20_000, maxResources: 20_000 },
  });
  await engine.init({ preload: [version] });
  engine.validate(buildManifest(docs, docs.length), version); // compile every kind the corpus uses

  // Latencies first: the API never validates a 10,000-resource body, so its heap never holds that garbage.
  const latencies: number[] = [];
  for (let i = 0; i < 1200; i++) {
    const slice = buildManifest(docs, PER_CALL, i * 7);
    const start = process.hrtime.bigint();
    engine.validate(slice, version);
    latencies.push(elapsedMs(start));
  }
  const calls = summarize(latencies.slice(200), PER_CALL);
  line(
    `in-process, ${PER_CALL}-resource calls (1000 after 200 warm-up): p50 ${calls.p50.toFixed(2)} ms, p99 ${calls.p99.toFixed(2)} ms, max ${calls.max.toFixed(2)} ms, ${Math.round(calls.resourcesPerSecond)} resources/s`,
  );

  const runs: number[] = [];
  let summary = { errors: 0, warnings: 0, info: 0 };
  for (let i = 0; i < 3; i++) {
    const start = process.hrtime.bigint();
    summary = engine.validate(manifest, version).summary;
    runs.push(elapsedMs(start));
  }
  const bestMs = Math.min(...runs);
  line(
    `in-process, whole file: ${runs.map((ms) => ms.toFixed(0)).join(' / ')} ms -> ${Math.round(RESOURCES / (bestMs / 1000))} resources/s (best of 3; ${JSON.stringify(summary)})`,
  );

  await cliFigures(version, docs, path.dirname(file), line);
  const ours = timeProcess(process.execPath, [CLI, '--version', version, '--output', 'json', file]);
  const perSecond = Math.round(RESOURCES / (bestMs / 1000));
  line(
    `targets: >= 5000 resources/s in-process ${perSecond >= 5000 ? 'met' : 'MISSED'}; p99 < 50 ms ${calls.p99 < 50 ? 'met' : 'MISSED'}`,
  );
  if (!process.argv.includes('--no-kubernetes-validate')) {
    const theirs = timeProcess(kubernetesValidateBinary(line), ['-k', `${version}.0`, '--quiet', file]);
    line(
      `kubernetes-validate ${version}.0 (startup included): ${theirs.seconds.toFixed(2)} s, exit ${theirs.exitCode}`,
    );
    line(
      `ratio: kubernetes-validate / our in-process = ${(theirs.seconds / (bestMs / 1000)).toFixed(1)}x; / our CLI = ${(theirs.seconds / ours.seconds).toFixed(1)}x`,
    );
  }

  if (process.argv.includes('--no-http')) return;
  // Over HTTP: against --base-url/--token when given, else a platform started here on embedded defaults.
  const given = flag('--base-url');
  const target = given
    ? { baseUrl: given, token: flag('--token') ?? '', stop: async () => undefined }
    : await startBenchPlatform();
  try {
    const http = await measureHttp(target.baseUrl, target.token, docs, { version });
    line(
      `HTTP ${target.baseUrl}, ${PER_CALL}-resource requests: p50 ${http.p50.toFixed(2)} ms, p99 ${http.p99.toFixed(2)} ms, ${Math.round(http.resourcesPerSecond)} resources/s`,
    );
  } finally {
    await target.stop();
  }
}

runBench(main);
