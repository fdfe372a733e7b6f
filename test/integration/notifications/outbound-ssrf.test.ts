import { randomUUID } from 'node:crypto';
import { makeOrg, uniqueSlug, type Member } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startReceiver } from '../../helpers/http-receiver';
import { freePort } from '../../helpers/net';
import { startSmtpCapture } from '../../helpers/smtp-capture';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

/**
 * docs/security.md rows 35 to 39 over the real API, with NOTIFY_ALLOW_PRIVATE_TARGETS off (the default): private and
 * loopback targets are refused at creation, and a row that names one anyway (created while the setting was on, or a
 * name that now resolves privately) is refused again at send time; nothing reaches the local server.
 */
let platform: TestPlatform;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let relay: Awaited<ReturnType<typeof startSmtpCapture>>;
let owner: Member;
let slug: string;
const api = () => httpClient(platform.url);

beforeAll(async () => {
  receiver = await startReceiver({ port: await freePort() });
  relay = await startSmtpCapture();
  platform = await startTestPlatform({
    env: {
      NOTIFY_ALLOW_HTTP: 'true',
      NOTIFY_ALLOWED_PORTS: `80,443,${receiver.port}`,
      NOTIFY_SMTP_ALLOWED_PORTS: `587,${relay.port}`,
    },
    worker: false,
  });
  const { members } = await makeOrg(platform, ['owner'], 'pro');
  owner = members.owner!;
  slug = uniqueSlug('proj');
  expect((await api().post('/api/v2/projects', { token: owner.token, body: { slug, name: 'p' } })).status).toBe(201);
}, 120_000);
afterAll(async () => {
  await platform?.close();
  await receiver?.close();
  await relay?.close();
});

const create = (url: string) =>
  api().post(`/api/v2/projects/${slug}/webhooks`, { token: owner.token, body: { name: 'x', url, events: ['*'] } });

describe('outbound SSRF controls (rows 35-39)', () => {
  it.each([
    // row 35
    'http://127.0.0.1/',
    `http://127.0.0.1:${'PORT'}/hook`,
    `http://localhost:${'PORT'}/hook`,
    'http://[::1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://metadata.google.internal/',
    // row 36
    'http://2130706433/',
    'http://0x7f000001/',
    'http://017700000001/',
    'http://127.1/',
    'http://0/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    // row 39
    'file:///etc/passwd',
    'gopher://example.com/',
    'ftp://example.com/',
    'https://example.com:6379/',
    'http://user:pw@example.com/',
  ])('refuses %s at creation with 400', async (raw) => {
    const res = await create(raw.replace('PORT', String(receiver.port)));
    expect(res.status).toBe(400);
    expect(receiver.received).toHaveLength(0);
  });

  it('the other channel types are checked the same way', async () => {
    const res = await api().post('/api/v2/notifications/channels', {
      token: owner.token,
      body: { type: 'chat2', name: 'x', url: `http://localhost:${receiver.port}/api/webhooks/1/t`, events: ['*'] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'target resolves to a private, loopback, link-local or reserved address' });
  });

  it('a stored loopback target (setting on at creation, or rebinding since) is refused again at send time', async () => {
    const { services } = platform;
    const project = (await services.db('projects').where({ slug }).first('id', 'organization_id')) as {
      id: string;
      organization_id: string;
    };
    for (const url of [receiver.url('/hook'), `http://localhost:${receiver.port}/hook`]) {
      const id = randomUUID();
      await services.db('notification_channels').insert({
        id,
        organization_id: project.organization_id,
        project_id: project.id,
        type: 'webhook',
        name: 'stored',
        settings: JSON.stringify({ url }),
        events: ['*'],
        active: true,
      });
      const sent = await api().post(`/api/v2/projects/${slug}/webhooks/${id}/test`, { token: owner.token });
      expect(sent.body).toMatchObject({ results: [{ status: 'refused', responseStatus: null }] });
      const log = await api().get(`/api/v2/projects/${slug}/webhooks/${id}/deliveries`, { token: owner.token });
      expect(log.body).toMatchObject({ items: [{ status: 'refused' }] });
    }
    expect(receiver.received).toHaveLength(0);
  });

  it('changing a stored target to a loopback address is refused like a creation', async () => {
    const row = (await platform.services.db('notification_channels').where({ name: 'stored' }).first('id')) as {
      id: string;
    };
    const res = await api().patch(`/api/v2/projects/${slug}/webhooks/${row.id}`, {
      token: owner.token,
      body: { url: 'http://[::ffff:127.0.0.1]/' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'target resolves to a private, loopback, link-local or reserved address' });
  });

  it("an organization's SMTP relay on a private address is refused when saved and again at send time", async () => {
    for (const host of ['127.0.0.1', 'localhost', '127.1', '169.254.169.254', '[::1]']) {
      const res = await api().put('/api/v2/notifications/smtp', {
        token: owner.token,
        body: { host, port: relay.port, security: 'none', from: 'alerts@example.com' },
      });
      expect([host, res.status, res.body]).toEqual([
        host,
        400,
        { error: 'target resolves to a private, loopback, link-local or reserved address' },
      ]);
    }
    // A row naming the loopback relay anyway (saved while the setting was on): the test send and every email
    // delivery of the organization are refused, and the relay receives nothing.
    const org = (await platform.services.db('projects').where({ slug }).first('organization_id')) as {
      organization_id: string;
    };
    await platform.services.db('organization_smtp_settings').insert({
      organization_id: org.organization_id,
      host: '127.0.0.1',
      port: relay.port,
      security: 'none',
      from_address: 'alerts@example.com',
    });
    const test = await api().post('/api/v2/notifications/smtp/test', {
      token: owner.token,
      body: { to: 'ops@example.com' },
    });
    expect(test.body).toMatchObject({ status: 'refused' });
    const channel = await api().post('/api/v2/notifications/channels', {
      token: owner.token,
      body: { type: 'email', name: 'mail', recipients: ['ops@example.com'], events: ['*'] },
    });
    const sent = await api().post(`/api/v2/notifications/channels/${(channel.body as { id: string }).id}/test`, {
      token: owner.token,
    });
    expect(sent.body).toMatchObject({ results: [{ recipient: 'ops@example.com', status: 'refused' }] });
    expect(relay.mails).toHaveLength(0);
  });
});
