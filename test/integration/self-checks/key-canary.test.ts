import { randomBytes } from 'node:crypto';
import { exited, spawnScript } from '../../helpers/child-process';
import { httpClient } from '../../helpers/http-client';
import { freePort } from '../../helpers/net';
import { deploymentEnv } from '../../helpers/platform-process';
import { sharedSettings, startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { generatePemPair } from '../../../src/identity/signing-keys';

/**
 * Issue 43, M2: the deployment's keys, proven at start by every process. The first process stores a canary sealed
 * with MFA_ENCRYPTION_KEY and signed with its JWT key; a process with other keys is not ready (/readyz 503 naming
 * the setting, never the key), and a worker with them exits 78 instead of polling.
 */
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  // What runPlatform does as a process starts (src/runtime/self-check-at-start.ts): the first one stores the canary.
  expect((await platform.services.readiness.selfCheck()).failed).toEqual({});
}, 120_000);
afterAll(() => platform.close());

/** A second API process of the deployment (its database), with these settings over the deployment's. */
const apiWith = (env: Record<string, string>) =>
  startTestPlatform({
    worker: false,
    database: platform.database,
    env: { ...sharedSettings(platform.config), ...env },
  });

async function readiness(url: string) {
  return httpClient(url).get<{ reasons?: Record<string, string> }>('/readyz');
}

it('stores the canary at first start, and a process with the same keys is ready', async () => {
  const rows = (await platform.services.db('key_canary').select('signatures')) as Array<{
    signatures: Record<string, string>;
  }>;
  expect(rows).toHaveLength(1);
  expect(Object.keys(rows[0]!.signatures)).toEqual([platform.services.signingKeys.kid]);
  expect((await readiness(platform.url)).status).toBe(200);
  const same = await apiWith({});
  try {
    expect((await readiness(same.url)).status).toBe(200);
  } finally {
    await same.close();
  }
});

it('is not ready with another MFA_ENCRYPTION_KEY, naming the setting and never a key', async () => {
  const wrongKey = randomBytes(32).toString('base64');
  const other = await apiWith({ MFA_ENCRYPTION_KEY: wrongKey });
  try {
    const ready = await readiness(other.url);
    expect(ready.status).toBe(503);
    expect(ready.body.reasons?.keys).toMatch(/^MFA_ENCRYPTION_KEY is not the deployment's/);
    expect(ready.text).not.toContain(wrongKey);
    expect(ready.text).not.toContain(sharedSettings(platform.config).MFA_ENCRYPTION_KEY);
  } finally {
    await other.close();
  }
});

it('is not ready with other JWT keys, and stays ready through a rotation (old public key kept as previous)', async () => {
  const own = sharedSettings(platform.config);
  const next = await generatePemPair();
  const stranger = await apiWith({ JWT_PRIVATE_KEY: next.privatePem, JWT_PUBLIC_KEY: next.publicPem });
  try {
    const ready = await readiness(stranger.url);
    expect(ready.status).toBe(503);
    expect(ready.body.reasons?.keys).toMatch(/^JWT_PUBLIC_KEY \(key [\w-]+\) is not the deployment's/);
    expect(ready.text).not.toMatch(/BEGIN (PRIVATE|PUBLIC) KEY/);
  } finally {
    await stranger.close();
  }
  // The rotation: the new key with the old public key as previous is trusted, and signs the canary too...
  const rotating = await apiWith({
    JWT_PRIVATE_KEY: next.privatePem,
    JWT_PUBLIC_KEY: next.publicPem,
    JWT_PREVIOUS_PUBLIC_KEYS: own.JWT_PUBLIC_KEY!,
  });
  try {
    expect((await readiness(rotating.url)).status).toBe(200);
  } finally {
    await rotating.close();
  }
  // ...so a process with only the new key (the old one dropped) is ready, and one still on the old key too.
  const rotated = await apiWith({ JWT_PRIVATE_KEY: next.privatePem, JWT_PUBLIC_KEY: next.publicPem });
  try {
    expect((await readiness(rotated.url)).status).toBe(200);
    expect((await readiness(platform.url)).status).toBe(200);
  } finally {
    await rotated.close();
  }
}, 120_000);

it('refuses to start a worker with another key: exit 78, the cause logged, no key material', async () => {
  const wrongKey = randomBytes(32).toString('base64');
  const child = spawnScript(
    'scripts/serve.ts',
    ['worker'],
    deploymentEnv(platform, { MFA_ENCRYPTION_KEY: wrongKey, WORKER_METRICS_PORT: String(await freePort()) }),
  );
  expect(await exited(child)).toBe(78);
  expect(child.output()).toMatch(/start-up self-check failed: keys: MFA_ENCRYPTION_KEY is not the deployment's/);
  expect(child.output()).not.toContain(wrongKey);
}, 120_000);
