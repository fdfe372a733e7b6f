import type { AuditService } from '../audit/audit-service';
import type { AuditStatus } from '../audit/types';
import type { RateRule } from '../config/identity';
import type { Db, Queryable, Tx } from '../db/knex';
import { Forbidden, NotFound, Unauthorized } from '../errors';
import { accountKey, addressKey, type RateLimiter } from '../rate-limit/fixed-window-limiter';
import type { AccessTokens } from './access-token';
import { AUTH_ACTIONS, authEntry, type AuthAction, type RequestMeta } from './auth-audit';
import { appendAccountEntry } from './account-audit';
import { defaultMembership, findMembership, type MembershipView } from '../orgs/membership-lookup';
import {
  claimRefreshToken,
  findRefreshToken,
  insertFamily,
  insertRefreshToken,
  liveFamilies,
  liveFamily,
  revokeFamily,
  revokeUserFamilies,
  touchFamily,
  type SessionFamily,
} from './session-repository';
import { credentialsById, publicUser, type PublicUser, type UserCredentials } from '../users/user-credentials';

export interface SessionSettings {
  idleMs: number;
  maxMs: number;
  /** Refresh calls per client address and per account within the rate window. */
  refreshRate: RateRule;
  rateWindowMs: number;
}

/** What a successful login, MFA step, OAuth callback or refresh hands to the HTTP layer. */
export interface IssuedSession {
  accessToken: string;
  expiresIn: number;
  /** Goes only into the Set-Cookie header, never into a JSON body (CK-2). */
  refreshToken: string;
  refreshMaxAgeSeconds: number;
  sessionId: string;
  user: PublicUser;
  organization: MembershipView | null;
}

export interface SessionDeps {
  db: Db;
  audit: AuditService;
  accessTokens: AccessTokens;
  limiter: RateLimiter;
  settings: SessionSettings;
}

function remainingSeconds(family: SessionFamily): number {
  return Math.max(1, Math.floor((Date.parse(family.expiresAt) - Date.now()) / 1000));
}

export function createSessionService(deps: SessionDeps) {
  const { db, audit, accessTokens, limiter, settings } = deps;

  /** What every session-issuing path hands to the HTTP layer: a new access token and the family's new refresh token. */
  async function issued(
    user: UserCredentials,
    organization: MembershipView | null,
    family: SessionFamily,
    refreshToken: string,
  ): Promise<IssuedSession> {
    return {
      accessToken: await signFor(user, organization, family.id),
      expiresIn: accessTokens.ttlSeconds,
      refreshToken,
      refreshMaxAgeSeconds: remainingSeconds(family),
      sessionId: family.id,
      user: publicUser(user),
      organization,
    };
  }

  /**
   * A new session family for a user who passed every required factor; runs inside the transaction that also writes
   * the login's audit entry, so a session never exists without its record.
   */
  async function start(trx: Tx, user: UserCredentials, authMethod: string, meta: RequestMeta) {
    const organization = await defaultMembership(trx, user.id);
    const family = await insertFamily(trx, {
      userId: user.id,
      organizationId: organization?.organizationId ?? null,
      authMethod,
      userAgent: meta.userAgent,
      clientAddress: meta.clientAddress,
      maxMs: settings.maxMs,
    });
    return issued(user, organization, family, await insertRefreshToken(trx, family.id, settings.idleMs));
  }

  async function signFor(user: UserCredentials, org: MembershipView | null, sessionId: string) {
    const { token } = await accessTokens.sign({
      userId: user.id,
      email: user.email,
      organizationId: org?.organizationId ?? null,
      role: org?.role ?? null,
      sessionId,
    });
    return token;
  }

  /**
   * The audit entry of something that happened to a whole session, in the chain of each organization of the user
   * (an account event; the session's active organization is in the details).
   */
  async function auditFamily(
    trx: Tx,
    family: SessionFamily,
    action: AuthAction,
    meta: RequestMeta,
    status: AuditStatus,
    details: Record<string, unknown> = {},
  ): Promise<void> {
    const user = await credentialsById(trx, family.userId);
    await appendAccountEntry(
      audit,
      trx,
      family.userId,
      authEntry({
        action,
        meta,
        userId: family.userId,
        actor: user?.email ?? '',
        status,
        details: { sessionId: family.id, activeOrganizationId: family.organizationId, ...details },
      }),
      family.organizationId,
    );
  }

  /** Reuse detected (SES-4): the whole family ends, the newest token included, and the attempt is audited. */
  async function endReusedFamily(family: SessionFamily, meta: RequestMeta): Promise<never> {
    await db.transaction(async (trx) => {
      const revoked = await revokeFamily(trx, family.id, 'refresh_reuse');
      await auditFamily(trx, family, AUTH_ACTIONS.refreshReuse, meta, 'blocked', { familyRevoked: revoked });
    });
    throw new Unauthorized('refresh token already used; the session has been ended');
  }

  return {
    /**
     * The successful end of every login path (password, MFA step, OAuth): the session and the `auth.login` entry
     * with the factors that were passed commit together. `within` runs first in the same transaction (e.g. spending
     * the MFA challenge); anything it throws leaves no session behind.
     */
    async signIn(
      user: UserCredentials,
      factors: string[],
      meta: RequestMeta,
      within?: (trx: Tx) => Promise<void>,
    ): Promise<IssuedSession> {
      return db.transaction(async (trx) => {
        await within?.(trx);
        const session = await start(trx, user, factors.join('+'), meta);
        await audit.append(
          trx,
          authEntry({
            action: AUTH_ACTIONS.login,
            meta,
            userId: user.id,
            actor: user.email,
            organizationId: session.organization?.organizationId ?? null,
            details: { factors, sessionId: session.sessionId },
          }),
        );
        return session;
      });
    },

    /**
     * Rotation with reuse detection (SES-4): a token seen twice means it leaked, and since we cannot tell the
     * attacker from the user, the whole family dies, the newest token included. There is no overlap window:
     * two concurrent refreshes with one token also end the session (documented in docs/auth.md).
     */
    async refresh(token: string, requestedOrganizationId: string | undefined, meta: RequestMeta) {
      const rule = settings.refreshRate;
      await limiter.hit(
        [{ key: addressKey('refresh', meta.clientAddress), limit: rule.perAddress }],
        settings.rateWindowMs,
      );
      const presented = await findRefreshToken(db, token);
      if (!presented) throw new Unauthorized('invalid refresh token');
      const { family } = presented;
      await limiter.hit([{ key: accountKey('refresh', family.userId), limit: rule.perAccount }], settings.rateWindowMs);
      // A used token is reuse whatever its own idle deadline says: the family it was rotated into may still be
      // alive in someone else's hands.
      if (presented.used) return endReusedFamily(family, meta);
      if (presented.dead) throw new Unauthorized('session expired');
      const outcome = await db.transaction(async (trx) => {
        if (!(await claimRefreshToken(trx, presented.tokenId))) return 'reused' as const;
        const user = await credentialsById(trx, family.userId);
        if (!user || user.disabled) throw new Unauthorized('session expired');
        const organization = await organizationFor(trx, user.id, requestedOrganizationId ?? family.organizationId, {
          explicit: requestedOrganizationId !== undefined,
        });
        await touchFamily(trx, family.id, organization?.organizationId ?? null);
        return issued(user, organization, family, await insertRefreshToken(trx, family.id, settings.idleMs));
      });
      if (outcome !== 'reused') return outcome;
      return endReusedFamily(family, meta);
    },

    /** Ends the family of the presented refresh token (or of the bearer's session); idempotent. */
    async logout(input: { refreshToken?: string; sessionId?: string; userId?: string }, meta: RequestMeta) {
      const families: SessionFamily[] = [];
      if (input.refreshToken) {
        const presented = await findRefreshToken(db, input.refreshToken);
        if (presented) families.push(presented.family);
      }
      if (input.sessionId && input.userId) {
        const family = await liveFamily(db, input.userId, input.sessionId);
        if (family && !families.some((f) => f.id === family.id)) families.push(family);
      }
      for (const family of families) {
        await db.transaction(async (trx) => {
          if (!(await revokeFamily(trx, family.id, 'logout'))) return;
          await auditFamily(trx, family, AUTH_ACTIONS.logout, meta, 'success');
        });
      }
    },

    /** PUT /auth/active-organization: a new access token of the same session with the new org and role. */
    async switchOrganization(userId: string, sessionId: string | undefined, organizationId: string) {
      if (!sessionId) throw new Unauthorized('this token has no session; sign in again');
      return db.transaction(async (trx) => {
        const family = await liveFamily(trx, userId, sessionId);
        const user = await credentialsById(trx, userId);
        if (!family || !user || user.disabled) throw new Unauthorized('session expired');
        const organization = await organizationFor(trx, userId, organizationId, { explicit: true });
        await touchFamily(trx, family.id, organization?.organizationId ?? null);
        return {
          accessToken: await signFor(user, organization, family.id),
          expiresIn: accessTokens.ttlSeconds,
          organization,
        };
      });
    },

    /** A fresh access token for the caller's own session (after a password change voided the older ones). */
    async reissue(trx: Tx, user: UserCredentials, sessionId: string) {
      const family = await liveFamily(trx, user.id, sessionId);
      if (!family) throw new Unauthorized('session expired');
      const organization = family.organizationId ? await findMembership(trx, user.id, family.organizationId) : null;
      return { accessToken: await signFor(user, organization, family.id), expiresIn: accessTokens.ttlSeconds };
    },

    async list(userId: string, currentSessionId: string | undefined) {
      const families = await liveFamilies(db, userId);
      return families.map((f) => ({
        id: f.id,
        current: f.id === currentSessionId,
        authMethod: f.authMethod,
        userAgent: f.userAgent,
        clientAddress: f.clientAddress,
        createdAt: f.createdAt,
        lastUsedAt: f.lastUsedAt,
        expiresAt: f.expiresAt,
      }));
    },

    async revoke(userId: string, sessionId: string, meta: RequestMeta) {
      await db.transaction(async (trx) => {
        const family = await liveFamily(trx, userId, sessionId);
        if (!family || !(await revokeFamily(trx, family.id, 'revoked_by_user'))) {
          throw new NotFound('session not found');
        }
        await auditFamily(trx, family, AUTH_ACTIONS.sessionRevoke, meta, 'success');
      });
    },

    /** Password change/reset, MFA change, account disabled (SES-7). */
    endOtherSessions: (db2: Queryable, userId: string, reason: string, keepSessionId?: string) =>
      revokeUserFamilies(db2, userId, reason, keepSessionId),
  };
}

/**
 * The organization a token should carry. An explicit choice (X-Organization-ID on refresh, PUT active-organization)
 * must be a membership, else 403; a remembered one silently drops if the membership is gone.
 */
async function organizationFor(
  db: Queryable,
  userId: string,
  organizationId: string | null,
  opts: { explicit: boolean },
): Promise<MembershipView | null> {
  if (organizationId === null) return defaultMembership(db, userId);
  const membership = await findMembership(db, userId, organizationId);
  if (!membership && opts.explicit) throw new Forbidden('you are not a member of this organization');
  return membership ?? (await defaultMembership(db, userId));
}

export type SessionService = ReturnType<typeof createSessionService>;
