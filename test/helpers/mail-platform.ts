import type { OrgRole } from '../../src/iam/principal';
import { makeOrg } from './fixtures';
import { httpClient } from './http-client';
import { startSmtpCapture } from './smtp-capture';
import { startTestPlatform } from './test-platform';

/**
 * A test platform that mails to a real SMTP listener, with one organization and members of the given roles: what
 * every invitation test starts from. `close()` stops both.
 */
export async function startMailPlatform(opts: { env?: Record<string, string>; roles?: OrgRole[] } = {}) {
  const smtp = await startSmtpCapture();
  const platform = await startTestPlatform({ env: { SMTP_URL: smtp.url, ...opts.env } });
  const { org, members } = await makeOrg(platform, opts.roles ?? ['owner', 'admin']);
  return {
    smtp,
    platform,
    http: httpClient(platform.url),
    org,
    members,
    async close() {
      await platform.close();
      await smtp.close();
    },
  };
}

export type MailPlatform = Awaited<ReturnType<typeof startMailPlatform>>;
