import type { AuditService } from '../../audit/audit-service';
import type { Config } from '../../config';
import type { Db } from '../../db/knex';
import { NotFound } from '../../errors';
import { createLogger } from '../../logging/logger';
import { createMailer } from '../../mail/mailer';
import { authMails } from '../auth-mails';
import { credentialsByEmail } from '../user-credentials';
import { resetUserMfa } from './mfa-settings';

const OPERATOR = 'operator-cli';

/**
 * `npm run admin -- reset-mfa --email E`: the instance operator's way out of "recovery-needed" when no organization
 * owner can do it. Audited as a system action; the user is told by mail.
 */
export async function operatorResetMfa(deps: { db: Db; audit: AuditService }, email: string, config: Config) {
  const user = await credentialsByEmail(deps.db, email);
  if (!user) throw new NotFound(`no user with email ${email}`);
  await resetUserMfa(
    deps,
    user.id,
    { actorType: 'system', actor: OPERATOR, userId: null, organizationId: null },
    { requestId: `cli-${Date.now()}`, clientAddress: 'local', userAgent: OPERATOR },
  );
  const mailer = createMailer(config.identity.mail, createLogger('warn', { process: 'admin' }));
  try {
    await mailer.send(authMails(config.publicUrl).mfaReset(user.email, 'the instance operator'));
  } finally {
    await mailer.close();
  }
  return { userId: user.id, email: user.email, mfa: 'not-configured' as const };
}
