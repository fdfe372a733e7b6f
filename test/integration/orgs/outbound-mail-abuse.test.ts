/**
 * Issue 16 item 3: outbound mail cannot be abused. Display names refuse control, line-break and invisible characters
 * at every entry point; invitation sends and reissues are limited per organization and per invited address (429 with
 * Retry-After), and a refused send creates nothing and mails nobody.
 */
import { makeOrg, type Member } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import type { TestPlatform } from '../../helpers/test-platform';
import type { SmtpCapture } from '../../helpers/smtp-capture';
import { startMailPlatform, type MailPlatform } from '../../helpers/mail-platform';

let env: MailPlatform;
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let smtp: SmtpCapture;
let org: Awaited<ReturnType<typeof makeOrg>>['org'];
let admin: Member;

beforeAll(async () => {
  env = await startMailPlatform({ env: { INVITATION_RATE_PER_ORG: '5', INVITATION_RATE_PER_ADDRESS: '2' } });
  ({ platform, smtp, http, org } = env);
  admin = env.members.admin!;
});
afterAll(() => env.close());

const HOSTILE_NAMES = [
  'Acme\r\nBcc: everyone@example.test',
  'Acme\u0085next line',
  'Acme\u2028separator',
  'Acme\u202Eevil',
  'Ac\u200Bme',
  'Acme\u0007',
];

describe('display names', () => {
  it.each(HOSTILE_NAMES.map((name) => [JSON.stringify(name), name]))(
    'refuses %s everywhere a name is set',
    async (_, name) => {
      const expected = 'name must not contain control, line-break or invisible formatting characters';
      const attempts = [
        http.post('/api/v1/organizations', { token: admin.token, body: { slug: 'hostile-org', name } }),
        http.patch(`/api/v1/organizations/${org.slug}`, { token: admin.token, body: { name } }),
        http.post('/api/v2/teams', { token: admin.token, body: { slug: 'hostile', name } }),
        http.post('/api/v2/projects', { token: admin.token, body: { slug: 'hostile', name } }),
        http.post('/api/v2/org/tenants', { token: admin.token, body: { slug: 'hostile', name } }),
        http.post('/api/v1/auth/register', {
          body: { email: 'hostile@example.test', password: 'correct horse battery staple', name },
        }),
      ];
      for (const res of await Promise.all(attempts)) {
        expect([res.status, (res.body as { error?: string }).error]).toEqual([
          400,
          `invalid request body: ${expected}`,
        ]);
      }
      const stored = await platform.services.db('organizations').where({ id: org.id }).first('name');
      expect(stored).toEqual({ name: 'Test Org' });
    },
  );

  it('keeps names with accents, emoji and ordinary spaces', async () => {
    const res = await http.patch(`/api/v1/organizations/${org.slug}`, {
      token: admin.token,
      body: { name: 'Équipe Ünïcode 🚀 Team' },
    });
    expect(res.status).toBe(200);
    await http.patch(`/api/v1/organizations/${org.slug}`, { token: admin.token, body: { name: 'Test Org' } });
  });
});

describe('invitation rate limits', () => {
  const invite = (email: string) =>
    http.post<{ id: string }>(`/api/v1/organizations/${org.slug}/invitations`, {
      token: admin.token,
      body: { email, role: 'member' },
    });
  const reissue = (id: string) =>
    http.post(`/api/v1/organizations/${org.slug}/invitations/${id}/reissue`, { token: admin.token });
  const mailsTo = (email: string) => smtp.to(email).length;

  it('limits sends and reissues to one address, then sends to the organization as a whole', async () => {
    const first = await invite('target@example.test');
    expect(first.status).toBe(201);
    expect((await reissue(first.body.id)).status).toBe(200);
    const refused = await reissue(first.body.id);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The invitation's mails go out from its workflow, after the answers: wait for the second, then count them all.
    await smtp.waitFor('target@example.test', /./, 1);
    expect(mailsTo('target@example.test')).toBe(2);

    // Refused attempts count too (hammering never shortens a window): 3 so far, two more sends reach the limit of 5.
    expect((await invite('second@example.test')).status).toBe(201);
    expect((await invite('third@example.test')).status).toBe(201);
    const overOrg = await invite('fourth@example.test');
    expect(overOrg.status).toBe(429);
    expect(overOrg.headers.get('retry-after')).toMatch(/^\d+$/);
    const rows = await platform.services.db('invitations').where({ organization_id: org.id }).pluck('email');
    expect(rows.sort()).toEqual(['second@example.test', 'target@example.test', 'third@example.test']);
    expect(mailsTo('fourth@example.test')).toBe(0);
  });
});
