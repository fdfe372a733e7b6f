import { encodeVerificationCursor } from '../../../src/audit/chain-verification';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

type Verification = {
  ok: boolean;
  checked: number;
  nextCursor: string | null;
  brokenAt?: { entryId: string; seq: string; problem: string };
};

let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  http = httpClient(platform.url);
});
afterAll(() => platform.close());

async function append(organizationId: string, n: number) {
  return platform.services.audit.appendStandalone({
    organizationId,
    actorType: 'user',
    actor: 'alice@example.test',
    action: 'release.deploy',
    category: 'deployment',
    details: { n },
  });
}

/** Follows nextCursor to the head, `limit` entries per call. */
async function verifyAll(token: string, limit: number) {
  const pages: Verification[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : `&cursor=${cursor}`;
    const res = await http.get<Verification>(`/api/v2/audit-logs/verification?limit=${limit}${query}`, { token });
    expect(res.status).toBe(200);
    pages.push(res.body);
    cursor = res.body.nextCursor;
  } while (cursor !== null && pages.length < 100);
  return pages;
}

describe('GET /api/v2/audit-logs/verification', () => {
  it('verifies the chain in bounded segments and stops at a tampered row', async () => {
    const a = await makeOrg(platform, ['owner']);
    const token = a.members.owner!.token;
    const entries = [];
    for (let n = 0; n < 5; n += 1) entries.push(await append(a.org.id, n));
    const total = Number(
      ((await platform.services.db('audit_log').where({ chain: a.org.id }).count('* as c').first()) as { c: string }).c,
    );

    const pages = await verifyAll(token, 2);
    expect(pages.every((p) => p.ok && p.checked <= 2)).toBe(true);
    expect(pages.reduce((sum, p) => sum + p.checked, 0)).toBe(total);
    expect(pages.length).toBe(Math.ceil(total / 2));

    const db = platform.services.db;
    const tampered = entries[3]!;
    await db.raw('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update_delete');
    try {
      await db('audit_log')
        .where({ id: tampered.id })
        .update({ details: JSON.stringify({ n: 99 }) });
    } finally {
      await db.raw('ALTER TABLE audit_log ENABLE ALWAYS TRIGGER audit_log_no_update_delete');
    }
    const broken = await verifyAll(token, 2);
    const last = broken[broken.length - 1]!;
    expect(broken.slice(0, -1).every((p) => p.ok)).toBe(true);
    expect(last).toMatchObject({
      ok: false,
      nextCursor: null,
      brokenAt: { entryId: tampered.id, problem: 'hash_mismatch' },
    });
    // Another organization's chain is its own: still intact. A row deleted from it breaks the link of the next one.
    const b = await makeOrg(platform, ['owner']);
    const kept = [await append(b.org.id, 1), await append(b.org.id, 2), await append(b.org.id, 3)];
    expect((await verifyAll(b.members.owner!.token, 1000)).every((p) => p.ok)).toBe(true);
    await db.raw('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update_delete');
    try {
      await db('audit_log').where({ id: kept[1]!.id }).delete();
    } finally {
      await db.raw('ALTER TABLE audit_log ENABLE ALWAYS TRIGGER audit_log_no_update_delete');
    }
    const gap = await verifyAll(b.members.owner!.token, 1000);
    expect(gap).toEqual([
      expect.objectContaining({
        ok: false,
        nextCursor: null,
        brokenAt: expect.objectContaining({ entryId: kept[2]!.id, problem: 'broken_link' }),
      }),
    ]);
  });

  it('refuses a forged cursor, a cursor of another organization, a bad limit, and a viewer', async () => {
    const a = await makeOrg(platform, ['owner', 'viewer']);
    const b = await makeOrg(platform, ['owner']);
    const token = a.members.owner!.token;
    await append(a.org.id, 1);
    const other = await append(b.org.id, 1);
    const otherRow = (await platform.services.db('audit_log').where({ id: other.id }).first('seq', 'hash')) as {
      seq: string;
      hash: string;
    };
    const path = '/api/v2/audit-logs/verification';
    const forged = encodeVerificationCursor({ seq: otherRow.seq, hash: 'f'.repeat(64) });
    const foreign = encodeVerificationCursor({ seq: otherRow.seq, hash: otherRow.hash });
    for (const cursor of [forged, foreign, 'bm9wZQ']) {
      const res = await http.get(`${path}?cursor=${cursor}`, { token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid cursor' });
    }
    // The other organization's own owner may continue from its own row.
    expect((await http.get(`${path}?cursor=${foreign}`, { token: b.members.owner!.token })).status).toBe(200);
    expect((await http.get(`${path}?limit=0`, { token })).status).toBe(400);
    expect((await http.get(`${path}?limit=1001`, { token })).status).toBe(400);
    expect((await http.get(path, { token: a.members.viewer!.token })).status).toBe(403);
  });
});
