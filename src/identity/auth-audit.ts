import type { AuditEntryInput, AuditStatus } from '../audit/types';

/** Who is asking, as far as the HTTP layer can tell; rides along into audit entries and session records. */
export interface RequestMeta {
  requestId: string;
  /** From Koa, which honours X-Forwarded-For only through TRUSTED_PROXY_COUNT. */
  clientAddress: string;
  userAgent: string;
}

export const AUTH_ACTIONS = {
  register: 'auth.register',
  emailVerify: 'auth.email.verify',
  login: 'auth.login',
  loginPasswordStep: 'auth.login.password_verified',
  logout: 'auth.logout',
  refreshReuse: 'auth.refresh_reuse',
  sessionRevoke: 'auth.session.revoke',
  passwordChange: 'auth.password.change',
  passwordReset: 'auth.password.reset',
  mfaEnable: 'auth.mfa.enable',
  mfaDisable: 'auth.mfa.disable',
  mfaReset: 'auth.mfa.reset',
  mfaRecoveryCodesRegenerate: 'auth.mfa.recovery_codes.regenerate',
  mfaRecoveryCodeUsed: 'auth.mfa.recovery_code_used',
  mfaCodeReuse: 'auth.mfa.totp_reuse',
  mfaChallengeLocked: 'auth.mfa.challenge_locked',
  oauthLogin: 'auth.oauth.login',
} as const;

export type AuthAction = (typeof AUTH_ACTIONS)[keyof typeof AUTH_ACTIONS];

/** Every authentication event lands in the audit log under the `authentication` category (EN-3). */
export function authEntry(input: {
  action: AuthAction;
  meta: RequestMeta;
  userId: string | null;
  actor: string;
  organizationId?: string | null;
  status?: AuditStatus;
  details?: Record<string, unknown>;
  actorType?: 'user' | 'system';
}): AuditEntryInput {
  return {
    organizationId: input.organizationId ?? null,
    userId: input.userId,
    actorType: input.actorType ?? 'user',
    actor: input.actor,
    action: input.action,
    category: 'authentication',
    resourceType: 'user',
    resourceId: input.userId,
    status: input.status ?? 'success',
    details: { clientAddress: input.meta.clientAddress, userAgent: input.meta.userAgent, ...input.details },
    requestId: input.meta.requestId,
  };
}
