import type { AuditService } from '../audit/audit-service';
import type { Config } from '../config';
import type { Db } from '../db/knex';
import { errorFields, type Logger } from '../logging/logger';
import type { Mailer } from '../mail/mailer';
import { createLoginBackoff } from '../rate-limit/login-backoff';
import { createRateLimiter } from '../rate-limit/fixed-window-limiter';
import { sweepStaleAuthRows } from './stale-auth-rows';
import type { AccessTokens } from './access-token';
import { authMails } from './auth-mails';
import type { IdentityDeps } from './identity-deps';
import { createLoginService } from './login-service';
import { findMembership, listMemberships } from '../orgs/membership-lookup';
import { createMfaLogin } from './mfa/mfa-login';
import { createMfaSettings } from './mfa/mfa-settings';
import type { SecretBox } from './mfa/secret-box';
import { createOAuthService } from './oauth/oauth-service';
import { createPasswordService } from './password-service';
import { createPasswordPolicy } from './password-policy';
import { createRegistrationService } from './registration-service';
import { createSessionService } from './session-service';
import { credentialsById, publicUser } from '../users/user-credentials';
import { Unauthorized } from '../errors';
import type { RequestMeta } from './auth-audit';

export interface IdentityInputs {
  config: Config;
  db: Db;
  audit: AuditService;
  mailer: Mailer;
  log: Logger;
  accessTokens: AccessTokens;
  secrets: SecretBox;
}

/** The identity services, composed once from the platform services (routes call these, never the repositories). */
export function createIdentity(inputs: IdentityInputs) {
  const config = inputs.config.identity;
  const limiter = createRateLimiter(inputs.db, {
    sweep: () => sweepStaleAuthRows(inputs.db, { lockAfter: config.loginLockAfter }),
    sweepEvery: 500,
    onError: (err) => inputs.log.warn('auth housekeeping failed', errorFields(err)),
  });
  const sessions = createSessionService({
    db: inputs.db,
    audit: inputs.audit,
    accessTokens: inputs.accessTokens,
    limiter,
    settings: {
      idleMs: config.sessionIdleMs,
      maxMs: config.sessionMaxMs,
      refreshRate: config.rates.refresh,
      rateWindowMs: config.rateWindowMs,
    },
  });
  const deps: IdentityDeps = {
    db: inputs.db,
    audit: inputs.audit,
    mailer: inputs.mailer,
    log: inputs.log,
    config,
    box: inputs.secrets,
    mails: authMails(inputs.config.publicUrl),
    limiter,
    backoff: createLoginBackoff(inputs.db, {
      delayAfter: config.loginDelayAfter,
      lockAfter: config.loginLockAfter,
      maxDelayMs: 15 * 60_000,
    }),
    sessions,
    policy: createPasswordPolicy(config.passwordBlocklistFile),
  };
  const mfaLogin = createMfaLogin(deps);
  const oauth = createOAuthService(deps, inputs.config.publicUrl, mfaLogin);
  const mfaSettings = createMfaSettings(deps);
  return {
    config,
    sessions,
    mfaLogin,
    mfaSettings,
    login: createLoginService(deps, mfaLogin),
    registration: createRegistrationService(deps),
    passwords: createPasswordService(deps),
    /** The password rules every way of setting a password applies (the operator CLI's create-user too). */
    passwordPolicy: deps.policy,
    oauth,
    /** GET /api/v1/auth/me: the user, the active organization, every membership and the MFA state. */
    async me(userId: string, organizationId: string | null) {
      const user = await credentialsById(inputs.db, userId);
      if (!user) throw new Unauthorized('missing or invalid token');
      return {
        user: publicUser(user),
        organization: organizationId ? await findMembership(inputs.db, userId, organizationId) : null,
        memberships: await listMemberships(inputs.db, userId),
        mfa: await mfaSettings.state(userId),
      };
    },
    /** Logout is public (the cookie authenticates it); a bearer token sent along ends its own session too. */
    async logout(authorization: string, refreshToken: string | undefined, meta: RequestMeta) {
      const match = /^Bearer (\S+)$/.exec(authorization);
      const claims = match?.[1] ? await inputs.accessTokens.verify(match[1]) : null;
      await sessions.logout({ refreshToken, sessionId: claims?.sessionId, userId: claims?.userId }, meta);
    },
    /** GET /api/v1/auth/config: what a login page needs to know, nothing more. */
    publicConfig: () => ({
      registrationOpen: config.registrationOpen,
      providers: oauth.providerIds(),
      mfaAvailable: true,
    }),
  };
}

export type Identity = ReturnType<typeof createIdentity>;
