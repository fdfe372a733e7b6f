import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

/**
 * The project listing runs a statement compiled once per shape (src/db/compiled-statements.ts, issue 34 item 5): every
 * shape (filter by name, archived or not, a later page) must answer as the query built each time did, with the
 * caller's own organization and values bound on every request.
 */
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let acme: string;
let globex: string;

interface Listing {
  items: { slug: string; organizationSlug: string; archived: boolean }[];
  nextCursor: string | null;
}

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  http = httpClient(platform.url);
  acme = (await makeOrg(platform)).members.owner!.token;
  globex = (await makeOrg(platform)).members.owner!.token;
  for (const [slug, name] of [
    ['alpha', 'Alpha 100%'],
    ['bravo', 'Bravo'],
    ['charlie', 'Charlie_x'],
    ['delta', 'Delta'],
    ['echo', 'Echo'],
  ]) {
    expect((await http.post('/api/v2/projects', { token: acme, body: { slug, name } })).status).toBe(201);
  }
  expect((await http.post('/api/v2/projects', { token: globex, body: { slug: 'zulu', name: 'Zulu' } })).status).toBe(
    201,
  );
  expect((await http.put('/api/v2/projects/delta/archived', { token: acme, body: { archived: true } })).status).toBe(
    200,
  );
}, 120_000);
afterAll(() => platform.close());

async function list(token: string, query: string): Promise<Listing> {
  const res = await http.get<Listing>(`/api/v2/projects${query}`, { token });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return res.body;
}

const slugs = (l: Listing) => l.items.map((p) => p.slug);

describe('the project listing', () => {
  it('answers each organization with its own projects, whichever asked first', async () => {
    for (let i = 0; i < 2; i++) {
      expect(slugs(await list(acme, ''))).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo']);
      expect(slugs(await list(globex, ''))).toEqual(['zulu']);
    }
  });

  it('pages with the cursor, each page after the last', async () => {
    const seen: string[] = [];
    let query = '?limit=2';
    for (let i = 0; i < 2; i++) {
      seen.length = 0;
      query = '?limit=2';
      for (;;) {
        const page = await list(acme, query);
        seen.push(...slugs(page));
        if (!page.nextCursor) break;
        query = `?limit=2&cursor=${page.nextCursor}`;
      }
      expect(seen).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo']);
    }
    expect(slugs(await list(acme, '?limit=3'))).toEqual(['alpha', 'bravo', 'charlie']);
  });

  it('filters by name or slug, with % and _ taken literally, and by archived', async () => {
    expect(slugs(await list(acme, '?q=ha'))).toEqual(['alpha', 'charlie']);
    expect(slugs(await list(acme, '?q=ELT'))).toEqual(['delta']);
    expect(slugs(await list(acme, '?q=%25'))).toEqual(['alpha']);
    expect(slugs(await list(acme, '?q=_'))).toEqual(['charlie']);
    expect(slugs(await list(globex, '?q=ha'))).toEqual([]);
    expect(slugs(await list(acme, '?archived=true'))).toEqual(['delta']);
    expect(slugs(await list(acme, '?archived=false'))).toEqual(['alpha', 'bravo', 'charlie', 'echo']);
    expect(slugs(await list(acme, '?q=a&archived=false&limit=1'))).toEqual(['alpha']);
    const first = await list(acme, '?q=a&archived=false&limit=1');
    expect(slugs(await list(acme, `?q=a&archived=false&limit=1&cursor=${first.nextCursor}`))).toEqual(['bravo']);
  });
});

describe('the listing item', () => {
  it('is the project as its own route answers it, field for field in the same order, timestamps spelled alike to the millisecond (cut, not rounded)', async () => {
    // Microseconds that round up and a date in another year: PostgreSQL spells the listing's timestamps itself.
    await platform.services.db('projects').where({ slug: 'echo' }).update({
      created_at: '1999-12-31T23:59:59.999999Z',
      updated_at: '2026-03-01T00:00:00.000500+05:30',
    });
    await platform.services
      .db('projects')
      .where({ slug: 'delta' })
      .update({ archived_at: '2030-06-15T12:34:56.7891Z' });
    // Text any serializer must escape as JSON.stringify does (the listing's is compiled from a schema).
    await platform.services
      .db('projects')
      .where({ slug: 'bravo' })
      .update({ description: 'say "hi" \\ \u0001\t\n é 🎉 \u2028 </script>' });
    const listing = await list(acme, '');
    expect(listing.items.find((p) => p.slug === 'bravo')).toMatchObject({ description: expect.stringContaining('🎉') });
    for (const item of listing.items) {
      const own = await http.get<Record<string, unknown>>(`/api/v2/projects/${item.slug}`, { token: acme });
      expect(own.status).toBe(200);
      expect(JSON.stringify(item)).toBe(JSON.stringify(own.body));
    }
    const echo = listing.items.find((p) => p.slug === 'echo') as unknown as Record<string, unknown>;
    expect([echo.createdAt, echo.updatedAt]).toEqual(['1999-12-31T23:59:59.999Z', '2026-02-28T18:30:00.000Z']);
    const delta = listing.items.find((p) => p.slug === 'delta') as unknown as Record<string, unknown>;
    expect(delta.archivedAt).toBe('2030-06-15T12:34:56.789Z');
  });
});
