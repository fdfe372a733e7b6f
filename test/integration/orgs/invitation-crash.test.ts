/**
 * Issue 16 item 9: the invitation row and its workflow are one unit. An API process is killed (SIGKILL) after the
 * row's commit and before its workflow starts (its Temporal connection cut, so the start hangs there). The row
 * stays pending with no workflow; the reconciler of a worker starts it, the workflow mails the sealed token exactly
 * once, and the admin can revoke it again.
 */
import { exited } from '../../helpers/child-process';
import { makeOrg, type Member } from '../../helpers/fixtures';
import { harnessState } from '../../helpers/harness-state';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import type { SmtpCapture } from '../../helpers/smtp-capture';
import { startMailPlatform, type MailPlatform } from '../../helpers/mail-platform';
import { startTcpProxy } from '../../helpers/tcp-proxy';
import { startApiProcess } from '../../helpers/platform-process';
import type { TestPlatform } from '../../helpers/test-platform';
import { hashInvitationToken } from '../../../src/invitations/invitation-token';
import { invitationTokenIn } from './invitation-mail';

let env: MailPlatform;
let platform: TestPlatform;
let smtp: SmtpCapture;
let org: Awaited<ReturnType<typeof makeOrg>>['org'];
let admin: Member;

beforeAll(async () => {
  env = await startMailPlatform({ env: { INVITATION_RECONCILE_INTERVAL: '1h' } });
  ({ platform, smtp, org } = env);
  admin = env.members.admin!;
});
afterAll(() => env.close());

async function apiProcessBehind(proxyPort: number) {
  const { child, url } = await startApiProcess(platform, {
    TEMPORAL_ADDRESS: `127.0.0.1:${proxyPort}`,
    SMTP_URL: smtp.url,
  });
  return { child, http: httpClient(url) };
}

describe('a crash between the invitation row and its workflow', () => {
  it('leaves a row the reconciler completes: one workflow, one mail, revocable', async () => {
    const [host, port] = harnessState().temporalAddress.split(':');
    const proxy = await startTcpProxy(host!, Number(port));
    const { child, http } = await apiProcessBehind(proxy.port);
    const email = 'crashed@example.test';
    try {
      await proxy.cut();
      // The row commits, then the workflow start waits on the cut connection: the process dies right there.
      void http
        .post(`/api/v1/organizations/${org.slug}/invitations`, { token: admin.token, body: { email, role: 'member' } })
        .catch(() => undefined);
      await eventually(
        async () =>
          (await platform.services.db('invitations').where({ organization_id: org.id, email }).first()) ?? null,
        15_000,
        'invitation row committed',
      );
      child.kill('SIGKILL');
      expect(await exited(child)).toBe('SIGKILL');
    } finally {
      child.kill('SIGKILL');
    }

    const row = await platform.services.db('invitations').where({ organization_id: org.id, email }).first();
    expect(row).toMatchObject({ status: 'pending', workflow_started_at: null, mailed_token_hash: null });
    const handle = platform.services.temporal.workflow.getHandle(row.workflow_id);
    await expect(handle.describe()).rejects.toThrow(/not found/i);
    expect(smtp.to(email)).toHaveLength(0);

    expect(await platform.services.invitations.reconcile()).toBe(1);
    expect(await platform.services.invitations.reconcile()).toBe(0);
    const mail = await smtp.waitFor(email, /^You are invited to join /);
    expect(hashInvitationToken(invitationTokenIn(mail))).toBe(row.token_hash);
    expect((await handle.describe()).status.name).toBe('RUNNING');

    const revoke = await httpClient(platform.url).delete(`/api/v1/organizations/${org.slug}/invitations/${row.id}`, {
      token: admin.token,
    });
    expect(revoke.status).toBe(200);
    expect(smtp.to(email)).toHaveLength(1);
  });
});
