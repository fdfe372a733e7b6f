import type { Queryable } from '../db/knex';
import { normalizeEmail } from './user-repository';

/** The part of a user row that authentication reads; never returned to clients as is. */
export interface UserCredentials {
  id: string;
  email: string;
  name: string;
  passwordHash: string | null;
  emailVerified: boolean;
  disabled: boolean;
  createdAt: string;
}

interface Row {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  email_verified_at: Date | null;
  disabled_at: Date | null;
  created_at: Date;
}

const COLUMNS = ['id', 'email', 'name', 'password_hash', 'email_verified_at', 'disabled_at', 'created_at'] as const;

const toCredentials = (row: Row): UserCredentials => ({
  id: row.id,
  email: row.email,
  name: row.name,
  passwordHash: row.password_hash,
  emailVerified: row.email_verified_at !== null,
  disabled: row.disabled_at !== null,
  createdAt: row.created_at.toISOString(),
});

export async function credentialsByEmail(db: Queryable, email: string): Promise<UserCredentials | null> {
  const row = (await db('users')
    .where(db.raw('lower(email) = ?', [normalizeEmail(email)]))
    .first(COLUMNS)) as Row | undefined;
  return row ? toCredentials(row) : null;
}

export async function credentialsById(db: Queryable, id: string): Promise<UserCredentials | null> {
  const row = (await db('users').where({ id }).first(COLUMNS)) as Row | undefined;
  return row ? toCredentials(row) : null;
}

/**
 * One user's standing as the per-request authentication chain reads it (`id`, `disabled_at`, `valid_after` in epoch
 * seconds, `is_instance_admin`): a one-row derived table that chain joins its own tables to, so a request still pays
 * one primary-key lookup.
 */
export function userStanding(db: Queryable, userId: string) {
  return db('users')
    .where({ id: userId })
    .select(
      'id',
      'disabled_at',
      db.raw('floor(extract(epoch from tokens_valid_after)) as valid_after'),
      'is_instance_admin',
    );
}

/** A new password also invalidates every access token issued before now (SES-2, SES-7). */
export async function setPasswordHash(db: Queryable, userId: string, passwordHash: string): Promise<void> {
  await db('users')
    .where({ id: userId })
    .update({ password_hash: passwordHash, tokens_valid_after: db.fn.now(), updated_at: db.fn.now() });
}

/** Access tokens issued before now stop working (sessions ended by an operator). */
export async function invalidateTokens(db: Queryable, userId: string): Promise<void> {
  await db('users').where({ id: userId }).update({ tokens_valid_after: db.fn.now() });
}

export async function markEmailVerified(db: Queryable, userId: string): Promise<void> {
  await db('users')
    .where({ id: userId })
    .whereNull('email_verified_at')
    .update({ email_verified_at: db.fn.now(), updated_at: db.fn.now() });
}

/** What clients see of themselves. */
export interface PublicUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  createdAt: string;
}

export function publicUser(user: UserCredentials): PublicUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    emailVerified: user.emailVerified,
    createdAt: user.createdAt,
  };
}
