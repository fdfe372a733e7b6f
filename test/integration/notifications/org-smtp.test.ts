import { DOMAIN_EVENT, recordDomainEvent } from '../../../src/events/domain-event-repository';
import { startNotificationHarness, type NotificationHarness } from './notification-harness';

/**
 * Email over SMTP configured per organization: the settings routes (admins and owners, audited, the password sealed
 * and never answered, host and port checked like every outbound target), and every notification mail of an
 * organization with settings going to its relay (a real SMTP listener requiring the stored credentials) while
 * another organization's mail goes through the platform's SMTP_URL (a second listener).
 */
let h: NotificationHarness;
let a: Awaited<ReturnType<NotificationHarness['org']>>;
let b: Awaited<ReturnType<NotificationHarness['org']>>;
const SMTP = '/api/v2/notifications/smtp';
const channels = '/api/v2/notifications/channels';

beforeAll(async () => {
  h = await startNotificationHarness();
  [a, b] = [await h.org('free'), await h.org('free')];
}, 120_000);
afterAll(() => h?.close());

const settings = (over: Record<string, unknown> = {}) => ({
  host: '127.0.0.1',
  port: h.orgSmtp.port,
  security: 'none',
  username: 'relay-user',
  password: 'relay-password',
  from: 'alerts@org-a.example',
  ...over,
});

describe("an organization's own SMTP relay", () => {
  it('admins set, read, test and delete it; the password is sealed, never answered or audited', async () => {
    const token = a.owner.token;
    expect((await h.api.get(SMTP, { token })).body).toEqual({ configured: false });
    expect((await h.api.post(`${SMTP}/test`, { token, body: { to: 'ops@org-a.example' } })).status).toBe(404);
    for (const role of ['member', 'viewer'] as const) {
      const t = a.members[role]!.token;
      expect((await h.api.put(SMTP, { token: t, body: settings() })).status).toBe(403);
      expect((await h.api.get(SMTP, { token: t })).status).toBe(403);
    }
    const saved = await h.api.put(SMTP, { token, body: settings() });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ host: '127.0.0.1', username: 'relay-user', hasPassword: true });
    expect((await h.api.get(SMTP, { token })).body).toMatchObject({ configured: true, host: '127.0.0.1' });
    expect(saved.text).not.toContain('relay-password');
    expect((await h.api.get(SMTP, { token })).text).not.toContain('relay-password');
    const row = await h.platform.services.db('organization_smtp_settings').where({ organization_id: a.org.id }).first();
    expect(row.password_sealed).toEqual(expect.any(String));
    expect(JSON.stringify(row)).not.toContain('relay-password');

    // A port off NOTIFY_SMTP_ALLOWED_PORTS is refused when saved.
    const badPort = await h.api.put(SMTP, { token, body: settings({ port: 2626 }) });
    expect(badPort.status).toBe(400);
    expect(badPort.text).toContain('SMTP port 2626 is not allowed');

    const test = await h.api.post(`${SMTP}/test`, { token, body: { to: 'ops@org-a.example' } });
    expect(test.body).toMatchObject({ status: 'success', error: null });
    const mail = await h.orgSmtp.waitFor('ops@org-a.example', /^Test mail/);
    expect(mail.from).toBe('alerts@org-a.example');

    // Saving without a password keeps it; a wrong one makes the relay refuse (the stored one is what is sent).
    expect((await h.api.put(SMTP, { token, body: settings({ password: undefined }) })).body).toMatchObject({
      hasPassword: true,
    });
    await h.api.put(SMTP, { token, body: settings({ password: 'wrong' }) });
    const refused = await h.api.post(`${SMTP}/test`, { token, body: { to: 'ops@org-a.example' } });
    expect(refused.body).toMatchObject({ status: 'failed' });
    await h.api.put(SMTP, { token, body: settings() });

    const audit = await h.platform.services
      .db('audit_log')
      .where({ organization_id: a.org.id })
      .whereLike('action', 'notification.smtp.%')
      .orderBy('created_at');
    expect(audit.map((e: { action: string }) => e.action)).toEqual([
      'notification.smtp.update',
      'notification.smtp.test',
      'notification.smtp.update',
      'notification.smtp.update',
      'notification.smtp.test',
      'notification.smtp.update',
    ]);
    expect(JSON.stringify(audit)).not.toContain('relay-password');

    // Deleted: the organization is back on the platform's relay.
    await h.api.put(SMTP, { token: b.owner.token, body: settings({ from: 'alerts@org-b.example' }) });
    expect((await h.api.delete(SMTP, { token: b.owner.token })).status).toBe(204);
    expect((await h.api.get(SMTP, { token: b.owner.token })).body).toEqual({ configured: false });
    expect((await h.api.delete(SMTP, { token: b.owner.token })).status).toBe(404);
  });

  it("an organization's channel, personal and digest mail go to its relay; another organization's to the platform's", async () => {
    const email = async (ctx: typeof a, to: string) => {
      const res = await h.api.post(channels, {
        token: ctx.owner.token,
        body: { type: 'email', name: 'mail', recipients: [to], events: ['deployment'], active: true },
      });
      expect(res.status).toBe(201);
    };
    await email(a, 'team@org-a.example');
    await email(b, 'team@org-b.example');
    // A personal email preference and a digest member in organization A.
    await h.api.put('/api/v2/notifications/preferences', {
      token: a.members.member!.token,
      body: { events: ['deployment'], channels: { deployment: ['email'] } },
    });
    await h.api.put('/api/v2/notifications/preferences', {
      token: a.members.viewer!.token,
      body: { events: ['deployment'], channels: { deployment: ['email'] }, digestIntervalMs: 1000 },
    });
    for (const ctx of [a, b]) {
      await recordDomainEvent(h.platform.services.db, {
        organizationId: ctx.org.id,
        projectId: ctx.projectId,
        type: DOMAIN_EVENT.releaseDeployed,
        payload: { releaseId: `r-${ctx.slug}` },
      });
    }
    const channelMail = await h.orgSmtp.waitFor('team@org-a.example', /release\.deploy/);
    expect(channelMail.from).toBe('alerts@org-a.example');
    await h.orgSmtp.waitFor(a.members.member!.user.email, /release\.deploy/);
    await h.orgSmtp.waitFor(a.members.viewer!.user.email, /^Notification digest: 1 event$/);
    await h.smtp.waitFor('team@org-b.example', /release\.deploy/);
    expect(h.smtp.to('team@org-a.example')).toHaveLength(0);
    expect(h.smtp.to(a.members.member!.user.email)).toHaveLength(0);
    expect(h.orgSmtp.to('team@org-b.example')).toHaveLength(0);
  });
});
