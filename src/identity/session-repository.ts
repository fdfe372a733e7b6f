import type { Queryable } from '../db/knex';
import { hashToken, newSecretToken } from './secret-tokens';

/** One login: a chain of refresh tokens, each used once, all revoked together. */
export interface SessionFamily {
  id: string;
  userId: string;
  organizationId: string | null;
  authMethod: string;
  userAgent: string;
  clientAddress: string;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
}

interface FamilyRow {
  id: string;
  user_id: string;
  organization_id: string | null;
  auth_method: string;
  user_agent: string;
  client_address: string;
  created_at: Date;
  last_used_at: Date;
  expires_at: Date;
}

const FAMILY_COLUMNS = [
  'id',
  'user_id',
  'organization_id',
  'auth_method',
  'user_agent',
  'client_address',
  'created_at',
  'last_used_at',
  'expires_at',
] as const;

const toFamily = (row: FamilyRow): SessionFamily => ({
  id: row.id,
  userId: row.user_id,
  organizationId: row.organization_id,
  authMethod: row.auth_method,
  userAgent: row.user_agent,
  clientAddress: row.client_address,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at.toISOString(),
  expiresAt: row.expires_at.toISOString(),
});

export async function insertFamily(
  db: Queryable,
  input: {
    userId: string;
    organizationId: string | null;
    authMethod: string;
    userAgent: string;
    clientAddress: string;
    maxMs: number;
  },
): Promise<SessionFamily> {
  const [row] = (await db('session_families')
    .insert({
      user_id: input.userId,
      organization_id: input.organizationId,
      auth_method: input.authMethod,
      user_agent: input.userAgent.slice(0, 512),
      client_address: input.clientAddress,
      expires_at: db.raw('now() + make_interval(secs => ?)', [input.maxMs / 1000]),
    })
    .returning(FAMILY_COLUMNS)) as FamilyRow[];
  if (!row) throw new Error('insert returned no row');
  return toFamily(row);
}

/** A new opaque refresh token of the family; only its SHA-256 is stored (SES-3). */
export async function insertRefreshToken(db: Queryable, familyId: string, idleMs: number): Promise<string> {
  const token = newSecretToken();
  await db('refresh_tokens').insert({
    family_id: familyId,
    token_hash: hashToken(token),
    idle_expires_at: db.raw('now() + make_interval(secs => ?)', [idleMs / 1000]),
  });
  return token;
}

export interface PresentedRefreshToken {
  tokenId: string;
  used: boolean;
  /** Idle timeout passed, family revoked or past its absolute lifetime. */
  dead: boolean;
  family: SessionFamily;
}

export async function findRefreshToken(db: Queryable, token: string): Promise<PresentedRefreshToken | null> {
  const row = (await db('refresh_tokens as r')
    .join('session_families as f', 'f.id', 'r.family_id')
    .where('r.token_hash', hashToken(token))
    .first(
      'r.id as token_id',
      'r.used_at',
      db.raw('(r.idle_expires_at <= now() OR f.revoked_at IS NOT NULL OR f.expires_at <= now()) as dead'),
      ...FAMILY_COLUMNS.map((c) => `f.${c}`),
    )) as (FamilyRow & { token_id: string; used_at: Date | null; dead: boolean }) | undefined;
  if (!row) return null;
  return { tokenId: row.token_id, used: row.used_at !== null, dead: row.dead, family: toFamily(row) };
}

/**
 * The atomic single use (SES-5): of concurrent callers with one token, exactly one sees a row come back; the others
 * wait for its commit and then find `used_at` set.
 */
export async function claimRefreshToken(db: Queryable, tokenId: string): Promise<boolean> {
  const rows = (await db('refresh_tokens')
    .where({ id: tokenId })
    .whereNull('used_at')
    .update({ used_at: db.fn.now() })
    .returning(['id'])) as { id: string }[];
  return rows.length === 1;
}

export async function touchFamily(db: Queryable, familyId: string, organizationId: string | null): Promise<void> {
  await db('session_families')
    .where({ id: familyId })
    .update({ last_used_at: db.fn.now(), organization_id: organizationId });
}

/** Returns whether this call revoked it (false when it was already revoked). */
export async function revokeFamily(db: Queryable, familyId: string, reason: string): Promise<boolean> {
  const n = await db('session_families')
    .where({ id: familyId })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now(), revoked_reason: reason });
  return n > 0;
}

/** Ends all of a user's sessions, or all but the caller's own. Returns how many were live. */
export async function revokeUserFamilies(
  db: Queryable,
  userId: string,
  reason: string,
  exceptFamilyId?: string,
): Promise<number> {
  const query = db('session_families').where({ user_id: userId }).whereNull('revoked_at');
  if (exceptFamilyId) void query.whereNot({ id: exceptFamilyId });
  return query.update({ revoked_at: db.fn.now(), revoked_reason: reason });
}

/** Sessions that can still refresh: not revoked, within the absolute lifetime and the idle timeout. */
export async function liveFamilies(db: Queryable, userId: string): Promise<SessionFamily[]> {
  const rows = (await db('session_families as f')
    .where({ user_id: userId })
    .whereNull('revoked_at')
    .where('expires_at', '>', db.fn.now())
    .whereExists((q) =>
      q
        .select(db.raw('1'))
        .from('refresh_tokens as r')
        .whereRaw('r.family_id = f.id')
        .whereNull('r.used_at')
        .where('r.idle_expires_at', '>', db.fn.now()),
    )
    .orderBy('created_at', 'desc')
    .select(FAMILY_COLUMNS)) as FamilyRow[];
  return rows.map(toFamily);
}

export async function liveFamily(db: Queryable, userId: string, familyId: string): Promise<SessionFamily | null> {
  const row = (await db('session_families')
    .where({ id: familyId, user_id: userId })
    .whereNull('revoked_at')
    .where('expires_at', '>', db.fn.now())
    .first(FAMILY_COLUMNS)) as FamilyRow | undefined;
  return row ? toFamily(row) : null;
}
