import type { AuditService } from '../audit/audit-service';
import type { Config } from '../config';
import type { Db } from '../db/knex';
import { NotFound } from '../errors';
import { createLogger } from '../logging/logger';
import { createMailer } from '../mail/mailer';
import { AUTH_ACTIONS, authEntry } from './auth-audit';
import { authMails } from './auth-mails';
import { resetUserMfa } from './mfa/mfa-settings';
import { revokeUserFamilies } from './session-repository';
import { credentialsByEmail, invalidateTokens } from '../users/user-credentials';

const OPERATOR = 'operator-cli';
const cliMeta = () => ({ requestId: `cli-${Date.now()}`, clientAddress: 'local', userAgent: OPERATOR });

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
    cliMeta(),
  );
  const mailer = createMailer(config.identity.mail, createLogger('warn', { process: 'admin' }));
  try {
    await mailer.send(authMails(config.publicUrl).mfaReset(user.email, 'the instance operator'));
  } finally {
    await mailer.close();
  }
  return { userId: user.id, email: user.email, mfa: 'not-configured' as const };
}

/**
 * `npm run admin -- end-sessions --email E`: ends every session of a user at once (suspected compromise, SES-7);
 * their refresh tokens and access tokens stop working on the next request.
 */
export async function operatorEndSessions(deps: { db: Db; audit: AuditService }, email: string) {
  const user = await credentialsByEmail(deps.db, email);
  if (!user) throw new NotFound(`no user with email ${email}`);
  const ended = await deps.db.transaction(async (trx) => {
    const count = await revokeUserFamilies(trx, user.id, 'ended_by_operator');
    await invalidateTokens(trx, user.id);
    await deps.audit.append(trx, {
      ...authEntry({
        action: AUTH_ACTIONS.sessionRevoke,
        meta: cliMeta(),
        userId: null,
        actor: OPERATOR,
        actorType: 'system',
        details: { targetUserId: user.id, targetEmail: user.email, sessionsEnded: count },
      }),
      resourceId: user.id,
    });
    return count;
  });
  return { userId: user.id, email: user.email, sessionsEnded: ended };
}
