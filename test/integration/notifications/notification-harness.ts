import { makeOrg, uniqueSlug, type Member } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startReceiver } from '../../helpers/http-receiver';
import { freePort } from '../../helpers/net';
import { startSmtpCapture } from '../../helpers/smtp-capture';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

/**
 * A platform whose outbound sends may reach this host's loopback stand-ins: NOTIFY_ALLOW_PRIVATE_TARGETS and
 * NOTIFY_ALLOW_HTTP are switched on explicitly (outbound-ssrf.test.ts proves the refusals with them off), and the
 * receivers' ports are the allowed ones. Short timeouts keep the timeout cases quick.
 */
export async function startNotificationHarness(opts: { slowMs?: number; env?: Record<string, string> } = {}) {
  const [port, redirectTarget] = [await freePort(), await freePort()];
  const receiver = await startReceiver({
    port,
    slowMs: opts.slowMs ?? 4_000,
    redirectTo: `http://127.0.0.1:${redirectTarget}/`,
  });
  const smtp = await startSmtpCapture();
  // An organization's own relay (/api/v2/notifications/smtp), requiring these credentials.
  const orgSmtp = await startSmtpCapture({ auth: { user: 'relay-user', pass: 'relay-password' } });
  const platform: TestPlatform = await startTestPlatform({
    env: {
      NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
      NOTIFY_ALLOW_HTTP: 'true',
      NOTIFY_ALLOWED_PORTS: `${port},${redirectTarget}`,
      NOTIFY_TOTAL_TIMEOUT: '1500ms',
      NOTIFY_CONNECT_TIMEOUT: '1000ms',
      NOTIFY_POLL_INTERVAL: '200ms',
      NOTIFY_SMTP_ALLOWED_PORTS: `587,${orgSmtp.port}`,
      SMTP_URL: smtp.url,
      ...opts.env,
    },
  });
  const api = httpClient(platform.url);
  return {
    platform,
    api,
    receiver,
    smtp,
    orgSmtp,
    /** An organization on `plan` with one project; its owner's token. */
    async org(plan = 'pro') {
      const { org, members } = await makeOrg(platform, ['owner', 'member', 'viewer'], plan);
      const owner = members.owner as Member;
      const slug = uniqueSlug('proj');
      const res = await api.post('/api/v2/projects', { token: owner.token, body: { slug, name: 'Notified project' } });
      if (res.status !== 201) throw new Error(`project create: ${res.status} ${res.text}`);
      return { org, members, owner, slug, projectId: (res.body as { id: string }).id };
    },
    async close() {
      await platform.close();
      await receiver.close();
      await smtp.close();
      await orgSmtp.close();
    },
  };
}

export type NotificationHarness = Awaited<ReturnType<typeof startNotificationHarness>>;
