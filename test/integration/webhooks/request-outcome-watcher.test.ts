import { makeOrg } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import type { Tx } from '../../../src/db/knex';
import { StatementBatch } from '../../../src/db/statement-batch';
import { announceFinished } from '../../../src/webhooks/finished-here';
import { createRequestOutcomeWatcher } from '../../../src/webhooks/request-outcome-watcher';
import {
  claimRequest,
  finishRequest,
  finishRequests,
  type WebhookRequestRow,
} from '../../../src/webhooks/webhook-request-repository';
import { makeProject } from '../gitops/gitops-harness';

/**
 * Issue 46: a request waiting for its commit is answered from the rows its own process finished, once their
 * transaction commits, with no read; rows finished elsewhere (another API or a worker process) by the notification
 * and one read of every waiting request, as before.
 */
let platform: TestPlatform;
let organizationId: string;
let projectId: string;
let serial = 0;

beforeAll(async () => {
  platform = await startTestPlatform();
  const org = await makeOrg(platform, ['owner']);
  organizationId = org.org.id;
  await makeProject(platform, org.members.owner!.token, 'shop', ['acme']);
  ({ id: projectId } = await platform.services.db('projects').where({ organization_id: organizationId }).first('id'));
}, 120_000);
afterAll(() => platform.close());

/** `finishRequests` in a batch of its own, sent at once: the rows it finished. */
async function finishNow(trx: Tx, outcomes: Parameters<typeof finishRequests>[1]): Promise<WebhookRequestRow[]> {
  const batch = new StatementBatch();
  let rows: WebhookRequestRow[] = [];
  finishRequests(batch, outcomes, (finished) => (rows = finished));
  await batch.send(trx);
  return rows;
}

async function claimed(): Promise<WebhookRequestRow> {
  serial += 1;
  const { row } = await claimRequest(platform.services.db, {
    kind: 'image-update',
    request_hash: `outcome-watcher-${Date.now()}-${serial}`,
    organization_id: organizationId,
    project_id: projectId,
    expiresAt: new Date(Date.now() + 60_000),
    work: { webhookId: 'staged' },
  });
  return row;
}

const finished = (id: string) => [
  { id, status: 'committed' as const, commitSha: 'a'.repeat(40), result: { status: 'committed' } },
];

/** The watcher's reads of finished rows while `during` runs. */
async function readsDuring<T>(during: () => Promise<T>): Promise<{ value: T; reads: number }> {
  let reads = 0;
  const count = (q: { sql: string }) => {
    if (/^select \* from "webhook_requests" where "id" in .* and "status" in/.test(q.sql)) reads += 1;
  };
  platform.services.db.on('query', count);
  try {
    return { value: await during(), reads };
  } finally {
    platform.services.db.off('query', count);
  }
}

it('answers a wait from the rows finished in this process when their transaction commits, with no read', async () => {
  // No interval read within the test.
  const watcher = createRequestOutcomeWatcher(platform.services.db, platform.services.pgNotifications, 60_000);
  const row = await claimed();
  const { value, reads } = await readsDuring(async () => {
    const waited = watcher.wait(row.id, 10_000);
    // Finished without a notification, so that only the announcement can answer within the test (with one, the
    // notification may arrive before the transaction's own promise settles, and then a read answers it).
    await platform.services.db.transaction(async (trx) => {
      await finishRequest(trx, row.id, {
        status: 'committed',
        commitSha: 'a'.repeat(40),
        result: { status: 'committed' },
      });
      announceFinished(trx, [await trx('webhook_requests').where({ id: row.id }).first()]);
    });
    return waited;
  });
  expect([value?.id, value?.status, value?.commit_sha, value?.work]).toEqual([
    row.id,
    'committed',
    'a'.repeat(40),
    null,
  ]);
  expect(reads).toBe(0);
});

it('announces nothing from a transaction that rolls back', async () => {
  const watcher = createRequestOutcomeWatcher(platform.services.db, platform.services.pgNotifications, 60_000);
  const row = await claimed();
  const waited = watcher.wait(row.id, 1_000);
  await expect(
    platform.services.db.transaction(async (trx) => {
      announceFinished(trx, await finishNow(trx, finished(row.id)));
      throw new Error('the commit failed');
    }),
  ).rejects.toThrow('the commit failed');
  expect(await waited).toBeNull();
  const stored = await platform.services.db('webhook_requests').where({ id: row.id }).first();
  expect(stored.status).toBe('received');
});

it('answers a wait for a row finished by another process from the notification and one read', async () => {
  const watcher = createRequestOutcomeWatcher(platform.services.db, platform.services.pgNotifications, 60_000);
  const row = await claimed();
  const { value, reads } = await readsDuring(async () => {
    const waited = watcher.wait(row.id, 10_000);
    // What another process's commit does: no announcement here, the notification with the update.
    await platform.services.db.transaction((trx) => finishNow(trx, finished(row.id)));
    return waited;
  });
  expect([value?.id, value?.status]).toEqual([row.id, 'committed']);
  expect(reads).toBe(1);
  // A finished row is finished once: the same update again changes (and returns) nothing.
  expect(await platform.services.db.transaction((trx) => finishNow(trx, finished(row.id)))).toEqual([]);
});
