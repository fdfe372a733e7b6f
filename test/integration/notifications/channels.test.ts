import { createHmac } from 'node:crypto';
import { startNotificationHarness, type NotificationHarness } from './notification-harness';

/**
 * Issue 13 acceptance: every adapter's exact payload as a real local HTTP server receives it, the delivery log
 * (success, failed on 500, timeout), tiers, secrets at rest, toggling.
 */
let h: NotificationHarness;
let ctx: Awaited<ReturnType<NotificationHarness['org']>>;

beforeAll(async () => {
  h = await startNotificationHarness();
  ctx = await h.org('pro');
}, 120_000);
afterAll(() => h?.close());

const channels = '/api/v2/notifications/channels';
const webhooks = () => `/api/v2/projects/${ctx.slug}/webhooks`;

async function createChannel(body: Record<string, unknown>): Promise<string> {
  const res = await h.api.post(channels, { token: ctx.owner.token, body: { events: ['release.fail'], ...body } });
  expect(res.status).toBe(201);
  return (res.body as { id: string }).id;
}

async function testSend(path: string): Promise<{ status: string; responseStatus: number | null }[]> {
  const res = await h.api.post(`${path}/test`, { token: ctx.owner.token });
  expect(res.status).toBe(200);
  return (res.body as { results: { status: string; responseStatus: number | null }[] }).results;
}

function lastAt(path: string) {
  const hits = h.receiver.at(path);
  return { ...hits[hits.length - 1]!, json: JSON.parse(hits[hits.length - 1]!.body) as Record<string, unknown> };
}

describe('project HTTP webhooks', () => {
  it('adds a webhook inactive, test-sends a shape-A signed JSON payload, and toggles it active', async () => {
    const res = await h.api.post(webhooks(), {
      token: ctx.owner.token,
      body: { name: 'ci hook', url: h.receiver.url('/hook'), secret: 'hook-secret-1', events: ['releases'] },
    });
    expect(res.status).toBe(201);
    const hook = res.body as { id: string; active: boolean; hasSecret: boolean; settings: { url: string } };
    expect(hook).toMatchObject({ active: false, hasSecret: true, settings: { url: h.receiver.url('/hook') } });
    expect(JSON.stringify(hook)).not.toContain('hook-secret-1');

    expect(await testSend(`${webhooks()}/${hook.id}`)).toEqual([
      expect.objectContaining({ status: 'success', responseStatus: 200 }),
    ]);
    const got = lastAt('/hook');
    const timestamp = got.headers['x-service-timestamp'] as string;
    const expected = createHmac('sha256', 'hook-secret-1').update(`${timestamp}.${got.body}`).digest('hex');
    expect(got.headers['x-service-signature']).toBe(`sha256=${expected}`);
    expect(got.json).toMatchObject({ event: 'release.create', category: 'deployment', data: { test: true } });

    const toggled = await h.api.patch(`${webhooks()}/${hook.id}`, { token: ctx.owner.token, body: { active: true } });
    expect(toggled.body).toMatchObject({ active: true });

    const row = (await h.platform.services.db('notification_channels').where({ id: hook.id }).first()) as {
      secret_sealed: string;
    };
    expect(row.secret_sealed).not.toContain('hook-secret-1');
  });

  it('refuses a webhook of another project slug, members cannot add one, viewers cannot read them', async () => {
    expect((await h.api.get('/api/v2/projects/no-such-project/webhooks', { token: ctx.owner.token })).status).toBe(404);
    const body = { name: 'x', url: h.receiver.url('/hook'), events: ['*'] };
    expect((await h.api.post(webhooks(), { token: ctx.members.member!.token, body })).status).toBe(403);
    expect((await h.api.get(webhooks(), { token: ctx.members.viewer!.token })).status).toBe(403);
  });

  it('the delivery log lists success, failed on 500 (code and truncated body) and timeout', async () => {
    const mk = async (path: string) =>
      (
        (
          await h.api.post(webhooks(), {
            token: ctx.owner.token,
            body: { name: path, url: h.receiver.url(path), events: ['*'] },
          })
        ).body as { id: string }
      ).id;
    const [ok, fail, slow] = [await mk('/ok'), await mk('/fail'), await mk('/slow')];
    expect((await testSend(`${webhooks()}/${ok}`))[0]!.status).toBe('success');
    expect((await testSend(`${webhooks()}/${fail}`))[0]).toMatchObject({ status: 'failed', responseStatus: 500 });
    expect((await testSend(`${webhooks()}/${slow}`))[0]).toMatchObject({ status: 'timeout', responseStatus: null });

    const log = async (id: string) =>
      (
        (await h.api.get(`${webhooks()}/${id}/deliveries`, { token: ctx.members.member!.token })).body as {
          items: {
            status: string;
            responseStatus: number | null;
            responseBody: string | null;
            event: string;
            timestamp: string;
          }[];
        }
      ).items;
    expect(await log(ok)).toEqual([
      expect.objectContaining({ status: 'success', responseStatus: 200, event: 'release.create' }),
    ]);
    const failed = (await log(fail))[0]!;
    expect(failed).toMatchObject({ status: 'failed', responseStatus: 500 });
    expect(failed.responseBody!.length).toBe(4096);
    expect((await log(slow))[0]).toMatchObject({ status: 'timeout', responseStatus: null });
  });

  it('opt-in retries: three attempts with backoff on a 500, each logged', async () => {
    const res = await h.api.post(webhooks(), {
      token: ctx.owner.token,
      body: {
        name: 'retrying',
        url: h.receiver.url('/fail-retry'),
        events: ['*'],
        retry: { attempts: 3, backoffMs: 50 },
      },
    });
    const id = (res.body as { id: string }).id;
    expect((await h.api.post(`${webhooks()}/${id}/test`, { token: ctx.owner.token })).body).toMatchObject({
      results: [{ status: 'failed', attempts: 3 }],
    });
    const log = (await h.api.get(`${webhooks()}/${id}/deliveries`, { token: ctx.owner.token })).body as {
      items: { attempt: number }[];
    };
    expect(log.items.map((i) => i.attempt)).toEqual([3, 2, 1]);
  });

  it('410 Gone switches the channel off (audited); 429 retries wait for Retry-After', async () => {
    const gone = await h.api.post(webhooks(), {
      token: ctx.owner.token,
      body: {
        name: 'gone',
        url: h.receiver.url('/gone'),
        events: ['*'],
        active: true,
        retry: { attempts: 3, backoffMs: 10 },
      },
    });
    const id = (gone.body as { id: string }).id;
    expect((await h.api.post(`${webhooks()}/${id}/test`, { token: ctx.owner.token })).body).toMatchObject({
      results: [{ status: 'failed', responseStatus: 410, attempts: 1 }],
    });
    expect((await h.api.get(`${webhooks()}/${id}`, { token: ctx.owner.token })).body).toMatchObject({ active: false });
    const disabled = await h.platform.services
      .db('audit_log')
      .where({ resource_id: id, action: 'notification.channel.disable' });
    expect(disabled).toHaveLength(1);

    const busy = await h.api.post(webhooks(), {
      token: ctx.owner.token,
      body: { name: 'busy', url: h.receiver.url('/busy'), events: ['*'], retry: { attempts: 2, backoffMs: 10 } },
    });
    const started = Date.now();
    const res = await h.api.post(`${webhooks()}/${(busy.body as { id: string }).id}/test`, { token: ctx.owner.token });
    expect(res.body).toMatchObject({ results: [{ status: 'failed', responseStatus: 429, attempts: 2 }] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('a redirect is a failed delivery and is not followed', async () => {
    const res = await h.api.post(webhooks(), {
      token: ctx.owner.token,
      body: { name: 'redir', url: h.receiver.url('/redirect'), events: ['*'] },
    });
    const results = await testSend(`${webhooks()}/${(res.body as { id: string }).id}`);
    expect(results[0]).toMatchObject({ status: 'failed', responseStatus: 302 });
  });
});

describe('the other channel types send their service’s real message format', () => {
  it('team chat, incoming webhook: Block Kit with header, fields and context; the URL is sealed, only its host shown', async () => {
    const res = await h.api.post(channels, {
      token: ctx.owner.token,
      body: { type: 'chat', name: 'team chat', url: h.receiver.url('/chat/T000/B000/XXXX'), events: ['deployment'] },
    });
    expect(res.body).toMatchObject({ settings: { mode: 'webhook', host: `127.0.0.1:${h.receiver.port}` } });
    expect(res.text).not.toContain('XXXX');
    await testSend(`${channels}/${(res.body as { id: string }).id}`);
    const { json } = lastAt('/chat/T000/B000/XXXX');
    expect(json.text).toMatch(/^Test notification \(release.create\)/);
    expect(json.blocks).toEqual([
      { type: 'header', text: { type: 'plain_text', text: json.text } },
      { type: 'section', fields: expect.arrayContaining([{ type: 'mrkdwn', text: '*test*\ntrue' }]) },
      { type: 'context', elements: [{ type: 'mrkdwn', text: expect.stringMatching(/^release.create · info · /) }] },
    ]);
  });

  it('team chat, bot token: chat.postMessage with the channel and a Bearer token', async () => {
    const id = await createChannel({
      type: 'chat',
      mode: 'bot',
      name: 'bot',
      channel: 'C123',
      secret: 'xoxb-test-token',
      url: h.receiver.url('/api/chat.postMessage'),
    });
    await testSend(`${channels}/${id}`);
    const got = lastAt('/api/chat.postMessage');
    expect(got.headers.authorization).toBe('Bearer xoxb-test-token');
    expect(got.json).toMatchObject({ channel: 'C123', text: expect.stringContaining('release.fail') });
  });

  it('second chat service: execute-webhook body with one embed, no mentions', async () => {
    const id = await createChannel({ type: 'chat2', name: 'chat2', url: h.receiver.url('/api/webhooks/1/tok') });
    await testSend(`${channels}/${id}`);
    const { json } = lastAt('/api/webhooks/1/tok');
    expect(json).toMatchObject({
      username: 'Delivery Platform',
      allowed_mentions: { parse: [] },
      embeds: [
        {
          color: 0xd92d20,
          footer: { text: 'release.fail' },
          fields: expect.arrayContaining([{ name: 'test', value: 'true', inline: true }]),
        },
      ],
    });
  });

  it('enterprise chat cards: a MessageCard with facts', async () => {
    const id = await createChannel({ type: 'cards', name: 'cards', url: h.receiver.url('/webhookb2/abc') });
    await testSend(`${channels}/${id}`);
    const { json } = lastAt('/webhookb2/abc');
    expect(json).toMatchObject({
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      themeColor: 'D92D20',
      sections: [{ activityTitle: 'release.fail', facts: expect.arrayContaining([{ name: 'test', value: 'true' }]) }],
    });
  });

  it('incident paging: events API v2 trigger with routing key and dedup key', async () => {
    const id = await createChannel({
      type: 'paging',
      name: 'paging',
      secret: 'R0UTINGKEY',
      url: h.receiver.url('/v2/enqueue'),
    });
    await testSend(`${channels}/${id}`);
    const { json } = lastAt('/v2/enqueue');
    expect(json).toMatchObject({
      routing_key: 'R0UTINGKEY',
      event_action: 'trigger',
      dedup_key: expect.any(String),
      payload: {
        source: 'delivery-platform',
        severity: 'critical',
        class: 'release.fail',
        group: 'deployment',
        custom_details: { test: true },
      },
    });
    expect(
      (await h.api.post(channels, { token: ctx.owner.token, body: { type: 'paging', name: 'nokey', events: ['*'] } }))
        .status,
    ).toBe(400);
  });

  it('alert management: alert API create with GenieKey authorization, alias and priority', async () => {
    const id = await createChannel({
      type: 'alerts',
      name: 'alerts',
      secret: 'genie-key-1',
      url: h.receiver.url('/v2/alerts'),
    });
    await testSend(`${channels}/${id}`);
    const got = lastAt('/v2/alerts');
    expect(got.headers.authorization).toBe('GenieKey genie-key-1');
    expect(got.json).toMatchObject({
      priority: 'P1',
      tags: ['release.fail', 'deployment'],
      source: 'delivery-platform',
      alias: expect.any(String),
    });
  });

  it('email: one mail per recipient through the SMTP listener', async () => {
    const id = await createChannel({
      type: 'email',
      name: 'mail',
      recipients: ['oncall@example.test', 'lead@example.test'],
    });
    const results = await testSend(`${channels}/${id}`);
    expect(results.map((r) => r.status)).toEqual(['success', 'success']);
    const mail = await h.smtp.waitFor('oncall@example.test', /^\[critical\] Test notification/);
    expect(mail.text).toContain('Event: release.fail (deployment)');
    await h.smtp.waitFor('lead@example.test', /^\[critical\] Test notification/);
  });
});

describe('test sends are limited per organization (docs/security.md A-85)', () => {
  it('an email channel of 50 recipients: the recipients of test sends are counted, then 429 with Retry-After', async () => {
    const own = await h.org('free');
    const recipients = Array.from({ length: 50 }, (_, i) => `relay-${i}@limit.example.test`);
    const created = await h.api.post(channels, {
      token: own.owner.token,
      body: { type: 'email', name: 'many', events: ['release.fail'], recipients },
    });
    expect(created.status).toBe(201);
    const path = `${channels}/${(created.body as { id: string }).id}/test`;
    for (let i = 0; i < 2; i += 1) expect((await h.api.post(path, { token: own.owner.token })).status).toBe(200);
    await h.smtp.waitFor('relay-49@limit.example.test', /Test notification/, 1);
    const over = await h.api.post(path, { token: own.owner.token });
    expect([over.status, Number(over.headers.get('retry-after')) > 0]).toEqual([429, true]);
    // Two sends reached each recipient, the refused one none (its mails would have been sent before the answer).
    expect(h.smtp.to('relay-0@limit.example.test')).toHaveLength(2);
    // Another organization's test sends are counted apart.
    expect(
      (
        await testSend(
          `${channels}/${await createChannel({ type: 'email', name: 'solo', recipients: ['solo@limit.example.test'] })}`,
        )
      ).length,
    ).toBe(1);
  });
});

describe('tiers and audit', () => {
  it('chat and paging channels need the Pro plan; webhooks and email are Free', async () => {
    const free = await h.org('free');
    const post = (body: Record<string, unknown>) =>
      h.api.post(channels, { token: free.owner.token, body: { events: ['*'], name: 'x', ...body } });
    const chat = await post({ type: 'chat', url: h.receiver.url('/chat') });
    expect(chat.status).toBe(403);
    expect(chat.body).toEqual({ error: 'Team-chat notification channels require the Pro plan' });
    expect((await post({ type: 'alerts', secret: 'k', url: h.receiver.url('/a') })).body).toEqual({
      error: 'Incident-paging and alert-management channels require the Pro plan',
    });
    expect((await post({ type: 'email', recipients: ['a@example.test'] })).status).toBe(201);
    const hook = await h.api.post(`/api/v2/projects/${free.slug}/webhooks`, {
      token: free.owner.token,
      body: { name: 'h', url: h.receiver.url('/h'), events: ['*'] },
    });
    expect(hook.status).toBe(201);
  });

  it('every change is audited without secrets', async () => {
    const entries = await h.platform.services
      .db('audit_log')
      .where({ organization_id: ctx.org.id })
      .where('action', 'like', 'notification.channel.%');
    const actions = new Set(entries.map((e: { action: string }) => e.action));
    expect(actions).toEqual(
      new Set([
        'notification.channel.create',
        'notification.channel.update',
        'notification.channel.test',
        'notification.channel.disable',
      ]),
    );
    expect(JSON.stringify(entries)).not.toMatch(/hook-secret-1|R0UTINGKEY|genie-key-1|xoxb-test-token/);
  });

  it('unknown events are refused; another organization’s channel answers 404', async () => {
    expect(
      (
        await h.api.post(channels, {
          token: ctx.owner.token,
          body: { type: 'email', name: 'x', recipients: ['a@example.test'], events: ['nope.event'] },
        })
      ).status,
    ).toBe(400);
    const other = await h.org('pro');
    const mine = (await h.api.get(channels, { token: ctx.owner.token })).body as { items: { id: string }[] };
    expect((await h.api.get(`${channels}/${mine.items[0]!.id}`, { token: other.owner.token })).status).toBe(404);
  });
});
