import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { sharedSettings, startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { keyCanaryCheck } from '../../../src/identity/key-canary';

/**
 * Issue 43, M2: processes of one deployment that start at the same time against an empty database agree on one key
 * canary. Each reads, finds none, and stores its own with `insert ... on conflict do nothing`; all then read back the
 * one that was stored first and check their keys against it. A barrier (the test holds the table locked until every
 * process's read waits on it) makes them all find the table empty, every time.
 */
let first: TestPlatform;

beforeAll(async () => {
  // No readiness probe or self-check has run yet: the canary table is empty.
  first = await startTestPlatform({ worker: false });
}, 120_000);
afterAll(() => first?.close());

/** A second API process of the deployment (its database), with these settings over the deployment's. */
const apiWith = (env: Record<string, string>) =>
  startTestPlatform({ worker: false, database: first.database, env: { ...sharedSettings(first.config), ...env } });

/** The key canary check of a process, as its readiness and start-up self-check run it. */
const canaryCheckOf = (p: TestPlatform) =>
  keyCanaryCheck({ db: p.services.db, secrets: p.services.secrets, keys: p.services.signingKeys });

const canaryRows = async () =>
  (await first.services.db('key_canary').select('nonce', 'signatures')) as {
    nonce: string;
    signatures: Record<string, string>;
  }[];

/**
 * Runs every process's canary check at once against an empty table: the table is locked until each check's read waits
 * on the lock, so each finds no canary and tries to store its own.
 */
async function raceOnEmptyTable(processes: TestPlatform[]): Promise<(string | null)[]> {
  await first.services.db('key_canary').delete();
  const barrier: Knex.Transaction = await first.services.db.transaction();
  await barrier.raw('LOCK TABLE key_canary IN ACCESS EXCLUSIVE MODE');
  let checks: Promise<(string | null)[]>;
  try {
    checks = Promise.all(processes.map((p) => canaryCheckOf(p).check()));
    // Every process's read of the canary waits behind the lock (pg_stat_activity, from another connection).
    await eventually(async () => {
      const { rows } = (await first.services.db.raw(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%key_canary%'`,
      )) as { rows: { n: number }[] };
      return rows[0]!.n >= processes.length ? true : null;
    }, 20_000);
  } finally {
    await barrier.commit();
  }
  return checks;
}

it('two processes with the same keys starting at once store one canary and both pass (10 rounds)', async () => {
  const second = await apiWith({});
  try {
    for (let round = 0; round < 10; round += 1) {
      expect(await raceOnEmptyTable([first, second])).toEqual([null, null]);
      const rows = await canaryRows();
      expect(rows).toHaveLength(1);
      expect(Object.keys(rows[0]!.signatures)).toEqual([first.services.signingKeys.kid]);
    }
    // Their readiness, as a load balancer asks it, agrees.
    for (const p of [first, second]) expect((await httpClient(p.url).get('/readyz')).status).toBe(200);
  } finally {
    await second.close();
  }
}, 180_000);

it('of two processes with different encryption keys starting at once, exactly one is ready: the other reads its canary', async () => {
  const stranger = await apiWith({ MFA_ENCRYPTION_KEY: randomBytes(32).toString('base64') });
  try {
    for (let round = 0; round < 10; round += 1) {
      const [mine, theirs] = await raceOnEmptyTable([first, stranger]);
      // Whichever stored first, the other one checked its keys against that canary, not its own.
      const failed = [mine, theirs].filter((r) => r !== null);
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatch(/^MFA_ENCRYPTION_KEY is not the deployment's/);
      expect(await canaryRows()).toHaveLength(1);
    }
  } finally {
    await stranger.close();
  }
}, 180_000);
