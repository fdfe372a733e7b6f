import { createPgNotifications, type PgNotifications } from '../../../src/db/pg-notifications';
import { createLogger } from '../../../src/logging/logger';
import { eventually } from '../../helpers/net';
import { createTestDatabase, type TestDatabase } from '../../helpers/test-db';

/**
 * The process's one LISTEN connection (src/db/pg-notifications.ts): payloads reach the subscribers of their channel
 * after the sending transaction commits, a channel added later is heard too, and a lost connection is reported down,
 * opened again and reported up, after which notifications flow again.
 */
let database: TestDatabase;
let notifications: PgNotifications;

beforeAll(async () => {
  database = await createTestDatabase();
  notifications = createPgNotifications({ databaseUrl: database.url, log: createLogger('error') });
});
afterAll(async () => {
  await notifications.close();
  await database.drop();
});

const notify = (channel: string, payload: string) => database.db.raw('SELECT pg_notify(?, ?)', [channel, payload]);

it('delivers committed notifications by channel, and again after the connection is lost', async () => {
  const heard: string[] = [];
  const states: boolean[] = [];
  const stop = notifications.subscribe(
    'test_first',
    (payload) => heard.push(payload),
    (up) => states.push(up),
  );
  await eventually(async () => states.at(-1) === true || null, 10_000, 'listening');

  // Inside a transaction: heard only once it commits; a rolled back one is never heard.
  const trx = await database.db.transaction();
  await trx.raw("SELECT pg_notify('test_first', 'in transaction')");
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(heard).toEqual([]);
  await trx.commit();
  const rolledBack = await database.db.transaction();
  await rolledBack.raw("SELECT pg_notify('test_first', 'rolled back')");
  await rolledBack.rollback();
  await notify('test_first', 'plain');
  await eventually(async () => heard.length >= 2 || null, 5000, 'both heard');
  expect(heard).toEqual(['in transaction', 'plain']);

  // A second channel on the open connection; other channels' payloads do not reach it.
  const second: string[] = [];
  let secondUp = false;
  notifications.subscribe(
    'test_second',
    (payload) => second.push(payload),
    (up) => (secondUp = up),
  );
  await eventually(async () => secondUp || null, 5000, 'second channel listening');
  await notify('test_second', 'for the second');
  await eventually(async () => second.length > 0 || null, 5000, 'second heard');
  expect(second).toEqual(['for the second']);
  expect(heard).toEqual(['in transaction', 'plain']);

  // The connection is killed: reported down, opened again within about a second, reported up, and heard again.
  await database.db.raw(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'delivery-platform-notify' AND datname = current_database()",
  );
  await eventually(async () => states.includes(false) || null, 5000, 'reported down');
  await eventually(async () => states.at(-1) === true || null, 10_000, 'listening again');
  await notify('test_first', 'after the loss');
  await eventually(async () => heard.includes('after the loss') || null, 5000, 'heard after the loss');

  // Unsubscribed: no longer called.
  stop();
  await notify('test_first', 'unheard');
  await notify('test_second', 'marker');
  await eventually(async () => second.includes('marker') || null, 5000, 'marker heard');
  expect(heard).not.toContain('unheard');
});
