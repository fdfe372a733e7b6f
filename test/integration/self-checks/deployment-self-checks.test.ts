import { randomBytes } from 'node:crypto';
import { exited, killGroup, spawnScript } from '../../helpers/child-process';
import { httpClient } from '../../helpers/http-client';
import { eventually, freePort } from '../../helpers/net';
import { deploymentEnv } from '../../helpers/platform-process';
import { startS3Server, type S3Server } from '../../helpers/s3-server';
import { sharedSettings, startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { msToTs } from '@temporalio/common/lib/time';
import { registerSearchAttributes } from '../../../src/temporal/search-attributes';

/**
 * Issue 43, M2: the start-up self-checks beside the keys (key-canary.test.ts). A dead bucket, a clock minutes off
 * PostgreSQL's (a real process under Debian's `faketime`), a missing Temporal namespace or missing search attributes
 * each make /readyz answer 503 naming the cause; a worker without its namespace exits 78.
 */
let platform: TestPlatform;
let s3: S3Server;

beforeAll(async () => {
  [platform, s3] = await Promise.all([startTestPlatform({ worker: false }), startS3Server()]);
}, 120_000);
afterAll(async () => {
  await platform.close();
  await s3.stop();
});

const apiWith = (env: Record<string, string>) =>
  startTestPlatform({
    worker: false,
    database: platform.database,
    env: { ...sharedSettings(platform.config), ...env },
  });

const readiness = (url: string) => httpClient(url).get<{ reasons?: Record<string, string> }>('/readyz');

it('is not ready while the bucket does not answer, naming it', async () => {
  const missing = await apiWith(s3.settings('no-such-bucket'));
  try {
    const ready = await readiness(missing.url);
    expect(ready.status).toBe(503);
    expect(ready.body.reasons?.bucket).toMatch(
      /^the bucket no-such-bucket at http:\/\/127\.0\.0\.1:\d+ .* does not answer/,
    );
  } finally {
    await missing.close();
  }
  const bucket = `live-${randomBytes(3).toString('hex')}`;
  await s3.createBucket(bucket);
  const live = await apiWith(s3.settings(bucket));
  try {
    expect((await readiness(live.url)).status).toBe(200);
    await s3.stop();
    const ready = await readiness(live.url);
    expect(ready.status).toBe(503);
    expect(ready.body.reasons?.bucket).toContain(`the bucket ${bucket} at `);
  } finally {
    await live.close();
    s3 = await startS3Server();
  }
}, 120_000);

it('is not ready with a clock 7 minutes behind PostgreSQL (a process under faketime), naming the skew', async () => {
  const port = await freePort();
  const child = spawnScript('scripts/serve.ts', ['api'], deploymentEnv(platform, { PORT: String(port) }), {
    wrapper: ['faketime', '-f', '-7m'],
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    await eventually(
      async () => (await fetch(`${url}/healthz`).catch(() => null))?.ok,
      120_000,
      `api under faketime: ${child.output()}`,
    );
    const ready = await readiness(url);
    expect(ready.status).toBe(503);
    expect(ready.body.reasons?.clock).toMatch(
      /^clock skew: this process's clock is 4[12]\ds behind PostgreSQL's \(at most 30s allowed, CLOCK_SKEW_MAX\)/,
    );
    // Logged at start too, for an operator reading the pod's log.
    expect(child.output()).toContain('start-up self-check failed');
  } finally {
    await killGroup(child);
  }
}, 180_000);

it('is not ready without the Temporal namespace or its search attributes, and a worker without it exits 78', async () => {
  const absent = await apiWith({ TEMPORAL_NAMESPACE: 'no-such-namespace' });
  try {
    const ready = await readiness(absent.url);
    expect(ready.status).toBe(503);
    expect(ready.body.reasons?.['temporal-namespace']).toMatch(
      /^the Temporal namespace "no-such-namespace" does not exist/,
    );
  } finally {
    await absent.close();
  }
  const worker = spawnScript(
    'scripts/serve.ts',
    ['worker'],
    deploymentEnv(platform, { TEMPORAL_NAMESPACE: 'no-such-namespace', WORKER_METRICS_PORT: String(await freePort()) }),
  );
  expect(await exited(worker)).toBe(78);
  expect(worker.output()).toMatch(
    /start-up self-check failed: temporal-namespace: the Temporal namespace "no-such-namespace" does not exist/,
  );

  // A namespace of its own with none of the platform's search attributes: not ready until they are registered.
  const namespace = `selfcheck-${randomBytes(4).toString('hex')}`;
  const connection = platform.services.temporal.connection;
  await connection.workflowService.registerNamespace({
    namespace,
    workflowExecutionRetentionPeriod: msToTs('1 day'),
  });
  const bare = await apiWith({ TEMPORAL_NAMESPACE: namespace });
  try {
    const ready = await eventually(
      async () => {
        const res = await readiness(bare.url);
        return /lacks the search attributes/.test(res.body.reasons?.['temporal-namespace'] ?? '') && res;
      },
      30_000,
      'the namespace known, its search attributes missing',
    );
    expect(ready.status).toBe(503);
    expect(ready.body.reasons?.['temporal-namespace']).toMatch(/ReleaseId/);
    await registerSearchAttributes(connection, namespace);
    await eventually(async () => (await readiness(bare.url)).status === 200, 30_000, 'ready once registered');
  } finally {
    await bare.close();
  }
}, 180_000);
