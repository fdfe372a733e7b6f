import { insertEntries } from '../../../src/audit/audit-repository';
import { verifyChains } from '../../../src/audit/verify-chain';
import { eventually } from '../../helpers/net';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

type Page = { items: Array<Record<string, unknown>>; nextCursor: string | null };

let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  http = httpClient(platform.url);
});
afterAll(() => platform.close());

const entryOf = (organizationId: string, action: string) =>
  ({
    organizationId,
    actorType: 'user',
    actor: 'alice@example.test',
    action,
    category: 'deployment',
    details: { n: 1 },
  }) as const;

async function append(organizationId: string, action: string, extra: Record<string, unknown> = {}) {
  return platform.services.audit.appendStandalone({ ...entryOf(organizationId, action), ...extra });
}

describe('append-only storage', () => {
  it('refuses UPDATE, DELETE and TRUNCATE in PostgreSQL itself', async () => {
    const { org } = await makeOrg(platform);
    const entry = await append(org.id, 'release.deploy');
    const db = platform.services.db;
    await expect(db('audit_log').where({ id: entry.id }).update({ action: 'x' })).rejects.toThrow(/append-only/);
    await expect(db('audit_log').where({ id: entry.id }).delete()).rejects.toThrow(/append-only/);
    await expect(db.raw('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
  });

  it('keeps refusing with session_replication_role = replica (triggers are ENABLE ALWAYS)', async () => {
    const { org } = await makeOrg(platform);
    const entry = await append(org.id, 'release.deploy');
    await expect(
      platform.services.db.transaction(async (trx) => {
        await trx.raw('SET LOCAL session_replication_role = replica');
        await trx('audit_log').where({ id: entry.id }).update({ action: 'x' });
      }),
    ).rejects.toThrow(/append-only/);
  });
});

describe('hash chain verification', () => {
  it('passes on an untouched chain and reports an edited row and a deleted row', async () => {
    const { org } = await makeOrg(platform);
    await append(org.id, 'release.create');
    const second = await append(org.id, 'release.approve');
    const third = await append(org.id, 'release.deploy');
    const chain = org.id;
    expect((await verifyChains(platform.services.db, chain)).ok).toBe(true);

    // Tampering needs a superuser who disables the trigger: exactly what the chain exists to expose.
    const db = platform.services.db;
    await db.raw('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update_delete');
    try {
      await db('audit_log')
        .where({ id: second.id })
        .update({ details: JSON.stringify({ n: 2 }) });
      const edited = await verifyChains(db, chain);
      expect(edited.ok).toBe(false);
      expect(edited.problems).toEqual([expect.objectContaining({ entryId: second.id, problem: 'hash_mismatch' })]);

      await db('audit_log').where({ id: second.id }).delete();
      const deleted = await verifyChains(db, chain);
      expect(deleted.problems).toEqual([expect.objectContaining({ entryId: third.id, problem: 'broken_link' })]);
    } finally {
      await db.raw('ALTER TABLE audit_log ENABLE ALWAYS TRIGGER audit_log_no_update_delete');
    }
  });

  it('appends any text as given, one and several at a time, in one round trip with a chain that verifies', async () => {
    const { org } = await makeOrg(platform);
    const awkward = {
      quote: 'it\'s "quoted"',
      backslash: 'C:\\path\\to \\? and \\n',
      marks: "what? ?? \\? $1 $& :name '?'",
      unicode: 'Zürich ✓ 𝔘 \u2028',
      lines: 'one\ntwo\r\n\tthree',
      nested: { list: [1, 'two', null, { deep: '?' }] },
    };
    const one = await append(org.id, 'release.create', {
      details: awkward,
      resourceId: "r'1?",
      resourceType: 'release',
    });
    const db = platform.services.db;
    const queries: string[] = [];
    const count = (q: { sql: string }) => queries.push(q.sql);
    db.on('query', count);
    const several = await db.transaction((trx) =>
      insertEntries(trx, [
        { ...entryOf(org.id, 'release.approve'), details: { ...awkward, n: 2 } },
        { ...entryOf(org.id, 'release.deploy'), details: { n: 3 }, actor: "o'brien?" },
        { ...entryOf(org.id, 'release.healthy'), details: {} },
      ]),
    );
    db.off('query', count);
    // BEGIN, the append (the lock and the insert in one query string), COMMIT.
    expect(queries).toHaveLength(3);
    expect((await verifyChains(db, org.id)).problems).toEqual([]);
    const rows = (await db('audit_log')
      .where({ chain: org.id })
      .whereNot({ action: 'organization.create' })
      .orderBy('seq')) as {
      id: string;
      details: unknown;
      actor: string;
      resource_id: string | null;
      prev_hash: string;
      hash: string;
    }[];
    expect(rows.map((r) => r.id)).toEqual([one.id, ...several.map((e) => e.id)]);
    expect(rows[0]!.details).toEqual(awkward);
    expect(rows[0]!.resource_id).toBe("r'1?");
    expect(rows[1]!.details).toEqual({ ...awkward, n: 2 });
    expect(rows[2]!.actor).toBe("o'brien?");
    // Each link names the one before, and each hash is the one hash-chain.ts computes from it.
    for (const [i, row] of rows.entries()) {
      if (i > 0) expect(row.prev_hash).toBe(rows[i - 1]!.hash);
    }
    await expect(
      db.transaction((trx) => insertEntries(trx, [{ ...entryOf(org.id, 'release.create'), actor: 'nul\u0000' }])),
    ).rejects.toThrow(/NUL/);
    // The organization's creation and the four above: the refused one wrote nothing.
    expect(await db('audit_log').where({ chain: org.id }).count({ n: '*' })).toEqual([{ n: '5' }]);
  });

  it('stays one chain when writers wait for its lock: each reads the head after the writer it waited for', async () => {
    const { org } = await makeOrg(platform);
    const db = platform.services.db;
    let appended!: () => void;
    const first = new Promise<void>((resolve) => (appended = resolve));
    // The first writer appends and holds the chain's lock until three more writers wait for it.
    const holder = db.transaction(async (trx) => {
      await platform.services.audit.append(trx, entryOf(org.id, 'release.create'));
      appended();
      await eventually(
        async () => {
          // Waits for this chain's lock only (an advisory lock's 64-bit key is its classid and objid).
          const { rows } = (await db.raw(
            `SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
               AND ((classid::bigint << 32) | objid::bigint) = hashtextextended(?, 0)`,
            [`audit:${org.id}`],
          )) as { rows: { waiting: number }[] };
          return (rows[0]?.waiting ?? 0) >= 3;
        },
        20_000,
        'three writers waiting for the chain lock',
      );
    });
    await first;
    const actions = ['release.approve', 'release.deploy', 'release.verify'];
    const waiters = actions.map((action) => append(org.id, action));
    await Promise.all([holder, ...waiters]);
    const rows = (await db('audit_log')
      .where({ chain: org.id })
      .orderBy('seq')
      .select('action', 'prev_hash', 'hash')) as {
      action: string;
      prev_hash: string;
      hash: string;
    }[];
    // The holder's entry first; the waiters in whatever order the lock was granted to them.
    expect(rows.at(-4)?.action).toBe('release.create');
    expect(
      rows
        .slice(-3)
        .map((r) => r.action)
        .sort(),
    ).toEqual([...actions].sort());
    // Each entry links to the one before it (the organization's own creation entries first): none read the head from
    // before its wait.
    expect(rows.slice(1).map((r) => r.prev_hash)).toEqual(rows.slice(0, -1).map((r) => r.hash));
    expect((await verifyChains(db, org.id)).ok).toBe(true);
  });

  it('records createdAt with millisecond precision in UTC', async () => {
    const { org } = await makeOrg(platform);
    const entry = await append(org.id, 'image.update');
    expect(entry.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});

describe('GET /api/v2/audit-logs', () => {
  it('lists only the caller organization entries, filtered and paginated by cursor', async () => {
    const a = await makeOrg(platform, ['owner', 'viewer']);
    const b = await makeOrg(platform);
    for (let i = 0; i < 5; i += 1)
      await append(a.org.id, 'release.deploy', { status: i === 4 ? 'failure' : 'success' });
    await append(a.org.id, 'image.update', { actorType: 'system', actor: 'image-webhook', category: 'webhook' });
    await append(b.org.id, 'release.deploy');
    const token = a.members.owner!.token;

    const all = await http.get<Page>('/api/v2/audit-logs?limit=100', { token });
    expect(all.status).toBe(200);
    // The owner's organization creation plus the six entries appended here; nothing from organization b.
    expect(all.body.items.every((e) => e.organizationId === a.org.id)).toBe(true);
    expect(all.body.items.filter((e) => e.action === 'release.deploy')).toHaveLength(5);

    const page1 = await http.get<Page>('/api/v2/audit-logs?action=release.deploy&limit=2', { token });
    expect(page1.body.items).toHaveLength(2);
    expect(page1.body.nextCursor).not.toBeNull();
    const page2 = await http.get<Page>(
      `/api/v2/audit-logs?action=release.deploy&limit=2&cursor=${page1.body.nextCursor}`,
      {
        token,
      },
    );
    const page3 = await http.get<Page>(
      `/api/v2/audit-logs?action=release.deploy&limit=2&cursor=${page2.body.nextCursor}`,
      {
        token,
      },
    );
    const ids = [...page1.body.items, ...page2.body.items, ...page3.body.items].map((e) => e.id);
    expect(new Set(ids).size).toBe(5);
    expect(page3.body.nextCursor).toBeNull();

    const failed = await http.get<Page>('/api/v2/audit-logs?status=failure', { token });
    expect(failed.body.items.map((e) => e.status)).toEqual(['failure']);
    const system = await http.get<Page>('/api/v2/audit-logs?actorType=system&actor=image-webhook', { token });
    expect(system.body.items.map((e) => e.action)).toEqual(['image.update']);
    const prefix = await http.get<Page>('/api/v2/audit-logs?action=image.*', { token });
    expect(prefix.body.items.map((e) => e.action)).toEqual(['image.update']);
    const future = await http.get<Page>(`/api/v2/audit-logs?from=${new Date(Date.now() + 60_000).toISOString()}`, {
      token,
    });
    expect(future.body.items).toEqual([]);
  });

  it('rejects bad filters with a clear 400 and a viewer with 403', async () => {
    const a = await makeOrg(platform, ['owner', 'viewer']);
    const token = a.members.owner!.token;
    expect((await http.get('/api/v2/audit-logs?limit=100000', { token })).status).toBe(400);
    const unknown = await http.get('/api/v2/audit-logs?orgId=x', { token });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: 'invalid request query: unknown field orgId' });
    expect((await http.get('/api/v2/audit-logs?actorType=robot', { token })).status).toBe(400);
    expect((await http.get('/api/v2/audit-logs?from=2016-12-31T23:59:60Z', { token })).body).toEqual({
      error: 'from and to must be valid instants',
    });
    expect((await http.get('/api/v2/audit-logs?cursor=bm9wZQ', { token })).body).toEqual({ error: 'invalid cursor' });
    const viewer = await http.get('/api/v2/audit-logs', { token: a.members.viewer!.token });
    expect(viewer.status).toBe(403);
  });
});

describe('actor filter', () => {
  it('matches the named actor exactly: entries without a user id do not match a non-uuid actor', async () => {
    const a = await makeOrg(platform, ['owner']);
    const owner = a.members.owner!;
    await append(a.org.id, 'image.update', { actorType: 'system', actor: 'image-webhook', category: 'webhook' });
    await append(a.org.id, 'release.deploy', { actorType: 'system', actor: 'scheduler', category: 'deployment' });
    await append(a.org.id, 'release.approve', { userId: owner.user.id, actor: 'bob@example.test' });
    const token = owner.token;

    const webhook = await http.get<Page>('/api/v2/audit-logs?actor=image-webhook', { token });
    expect(webhook.body.items.map((e) => e.actor)).toEqual(['image-webhook']);
    const byEmail = await http.get<Page>('/api/v2/audit-logs?actor=bob%40example.test', { token });
    expect(byEmail.body.items.map((e) => e.action)).toEqual(['release.approve']);
    // A user id matches the entries that user made, whatever name they carried at the time.
    const byId = await http.get<Page>(`/api/v2/audit-logs?actor=${owner.user.id}`, { token });
    expect(byId.body.items.length).toBeGreaterThan(0);
    expect(byId.body.items.every((e) => e.userId === owner.user.id)).toBe(true);
    expect(byId.body.items.map((e) => e.action)).toContain('release.approve');
  });
});

describe('input PostgreSQL cannot hold is refused at the edge', () => {
  it('answers 400 for a NUL character in a filter and for a cursor beyond the bigint range', async () => {
    const a = await makeOrg(platform, ['owner']);
    const token = a.members.owner!.token;
    for (const field of ['actor', 'resourceType', 'resourceId']) {
      const res = await http.get(`/api/v2/audit-logs?${field}=a%00b`, { token });
      expect({ field, status: res.status, body: res.body }).toEqual({
        field,
        status: 400,
        body: { error: `invalid request query: ${field} must not contain NUL characters` },
      });
    }
    const beyond = Buffer.from('a:9999999999999999999').toString('base64url');
    expect((await http.get(`/api/v2/audit-logs?cursor=${beyond}`, { token })).body).toEqual({
      error: 'invalid cursor',
    });
    const largest = Buffer.from('a:9223372036854775807').toString('base64url');
    expect((await http.get(`/api/v2/audit-logs?cursor=${largest}`, { token })).status).toBe(200);
  });
});
