import type { Queryable } from '../db/knex';
import { isUniqueViolation } from '../db/knex';
import { Conflict } from '../errors';
import { canonicalEmail, emailLookupKey } from './email-address';

export interface User {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  isInstanceAdmin: boolean;
  createdAt: string;
}

interface UserRow {
  id: string;
  email: string;
  name: string;
  email_verified_at: Date | null;
  is_instance_admin: boolean;
  created_at: Date;
}

export const USER_COLUMNS = ['id', 'email', 'name', 'email_verified_at', 'is_instance_admin', 'created_at'] as const;

export function rowToUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    emailVerified: row.email_verified_at !== null,
    isInstanceAdmin: row.is_instance_admin,
    createdAt: row.created_at.toISOString(),
  };
}

/** The form addresses are compared in (see email-address.ts); the stored form of every account. */
export function normalizeEmail(email: string): string {
  return emailLookupKey(email);
}

export async function insertUser(
  db: Queryable,
  input: { email: string; name: string; passwordHash: string | null; verified: boolean; instanceAdmin?: boolean },
): Promise<User> {
  try {
    const [row] = (await db('users')
      .insert({
        email: canonicalEmail(input.email),
        name: input.name,
        password_hash: input.passwordHash,
        email_verified_at: input.verified ? db.fn.now() : null,
        is_instance_admin: input.instanceAdmin ?? false,
      })
      .returning(USER_COLUMNS)) as UserRow[];
    if (!row) throw new Error('insert returned no row');
    return rowToUser(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict('a user with this email already exists');
    throw err;
  }
}

export async function findUserByEmail(db: Queryable, email: string): Promise<User | null> {
  const row = (await db('users')
    .where(db.raw('lower(email) = ?', [normalizeEmail(email)]))
    .first(USER_COLUMNS)) as UserRow | undefined;
  return row ? rowToUser(row) : null;
}

/** Each user's `id`, `email` and `name`, for another module's query to join as a derived table (member lists). */
export function userProfiles(db: Queryable) {
  return db('users').select('id', 'email', 'name');
}

export async function findUserById(db: Queryable, id: string): Promise<User | null> {
  const row = (await db('users').where({ id }).first(USER_COLUMNS)) as UserRow | undefined;
  return row ? rowToUser(row) : null;
}
