import type { Queryable } from '../db/knex';
import { isUniqueViolation } from '../db/knex';
import { Conflict } from '../errors';
import { deleteOwned, insertOne, updateOwned } from '../db/owned-rows';
import { refuseAtLimit, type RowLimit } from '../db/row-limit';
import type { OrgRole } from '../iam/principal';

export const ACCOUNT_ROLES = ['viewer', 'member', 'admin'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

export interface ServiceAccount {
  id: string;
  name: string;
  description: string;
  role: AccountRole;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  name: string;
  description: string;
  role: AccountRole;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = ['id', 'name', 'description', 'role', 'created_by', 'created_at', 'updated_at'] as const;

function toAccount(row: Row): ServiceAccount {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    role: row.role,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const accounts = (db: Queryable, organizationId: string) =>
  db('service_accounts').where({ organization_id: organizationId });
const NAME_TAKEN = 'a service account with this name already exists';

/** Checked on create (docs/operations.md "Limits"), so the unpaged lists below hold every row. */
const ACCOUNTS_PER_ORGANIZATION: RowLimit = {
  max: 1000,
  message: 'an organization holds at most 1000 service accounts (limit "service accounts per organization")',
};
const TOKENS_PER_ACCOUNT: RowLimit = {
  max: 1000,
  message: 'a service account holds at most 1000 tokens (limit "tokens per service account")',
};

export async function insertServiceAccount(
  db: Queryable,
  organizationId: string,
  input: { name: string; description: string; role: AccountRole },
  createdBy: string | null,
): Promise<ServiceAccount> {
  await refuseAtLimit(accounts(db, organizationId), ACCOUNTS_PER_ORGANIZATION);
  const row = await insertOne<Row>(
    db('service_accounts')
      .insert({ organization_id: organizationId, ...input, created_by: createdBy })
      .returning(COLUMNS),
    NAME_TAKEN,
  );
  return toAccount(row);
}

export async function findServiceAccount(db: Queryable, organizationId: string, id: string) {
  const row = (await accounts(db, organizationId).where({ id }).first(COLUMNS)) as Row | undefined;
  return row ? toAccount(row) : null;
}

export async function listServiceAccounts(db: Queryable, organizationId: string): Promise<ServiceAccount[]> {
  const rows = (await accounts(db, organizationId).orderBy('name').select(COLUMNS)) as Row[];
  return rows.map(toAccount);
}

export async function updateServiceAccount(
  db: Queryable,
  organizationId: string,
  id: string,
  changes: Partial<{ name: string; description: string; role: AccountRole }>,
): Promise<boolean> {
  try {
    return await updateOwned(db, 'service_accounts', organizationId, id, changes);
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict(NAME_TAKEN);
    throw err;
  }
}

/** Its tokens and grants go with it (foreign keys cascade), so they fail on their next request. */
export function deleteServiceAccount(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  return deleteOwned(db, 'service_accounts', organizationId, id);
}

export interface AccountToken {
  id: string;
  serviceAccountId: string;
  description: string;
  scopes: string[];
  allowedActions: string[];
  expiresAt: string;
  createdBy: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

interface TokenRow {
  id: string;
  service_account_id: string;
  description: string;
  scopes: string[];
  allowed_actions: string[];
  expires_at: Date;
  created_by: string | null;
  created_at: Date;
  last_used_at: Date | null;
}

const TOKEN_COLUMNS = [
  'id',
  'service_account_id',
  'description',
  'scopes',
  'allowed_actions',
  'expires_at',
  'created_by',
  'created_at',
  'last_used_at',
] as const;

function toToken(row: TokenRow): AccountToken {
  return {
    id: row.id,
    serviceAccountId: row.service_account_id,
    description: row.description,
    scopes: row.scopes,
    allowedActions: row.allowed_actions,
    expiresAt: row.expires_at.toISOString(),
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
  };
}

export interface NewAccountToken {
  organizationId: string;
  serviceAccountId: string;
  description: string;
  scopes: string[];
  allowedActions: string[];
  expiresInSeconds: number;
  secretHash: Buffer;
  createdBy: string | null;
}

const tokensOf = (db: Queryable, organizationId: string, serviceAccountId: string) =>
  db('service_account_tokens').where({ organization_id: organizationId, service_account_id: serviceAccountId });

export async function insertAccountToken(db: Queryable, t: NewAccountToken): Promise<AccountToken> {
  await refuseAtLimit(tokensOf(db, t.organizationId, t.serviceAccountId), TOKENS_PER_ACCOUNT);
  const row = await insertOne<TokenRow>(
    db('service_account_tokens')
      .insert({
        organization_id: t.organizationId,
        service_account_id: t.serviceAccountId,
        description: t.description,
        scopes: t.scopes,
        allowed_actions: t.allowedActions,
        expires_at: db.raw('now() + make_interval(secs => ?)', [t.expiresInSeconds]),
        secret_hash: t.secretHash,
        created_by: t.createdBy,
      })
      .returning(TOKEN_COLUMNS),
    'token already exists',
    'service account not found',
  );
  return toToken(row);
}

export async function listAccountTokens(db: Queryable, organizationId: string, serviceAccountId: string) {
  const rows = (await tokensOf(db, organizationId, serviceAccountId)
    .orderBy('created_at')
    .select(TOKEN_COLUMNS)) as TokenRow[];
  return rows.map(toToken);
}

export async function deleteAccountToken(
  db: Queryable,
  organizationId: string,
  serviceAccountId: string,
  id: string,
): Promise<AccountToken | null> {
  const [row] = (await tokensOf(db, organizationId, serviceAccountId)
    .where({ id })
    .delete()
    .returning(TOKEN_COLUMNS)) as TokenRow[];
  return row ? toToken(row) : null;
}

export interface TokenIdentity {
  id: string;
  organizationId: string;
  serviceAccountId: string;
  accountName: string;
  role: OrgRole;
  scopes: string[];
  allowedActions: string[];
}

/** The unexpired token a presented value names, with its account's current name and role. */
export function findLiveTokenByHash(db: Queryable, secretHash: Buffer): Promise<TokenIdentity | null> {
  return findLiveToken(db, { 't.secret_hash': secretHash });
}

/** The unexpired token of the organization with this id (null once deleted, expired or its account gone). */
export function findLiveTokenById(db: Queryable, organizationId: string, id: string): Promise<TokenIdentity | null> {
  return findLiveToken(db, { 't.id': id, 't.organization_id': organizationId });
}

async function findLiveToken(db: Queryable, where: Record<string, unknown>): Promise<TokenIdentity | null> {
  const row = (await db('service_account_tokens as t')
    .join('service_accounts as a', 'a.id', 't.service_account_id')
    .where(where)
    .andWhere('t.expires_at', '>', db.fn.now())
    .first('t.id', 't.organization_id', 'a.id as account_id', 'a.name', 'a.role', 't.scopes', 't.allowed_actions')) as
    | {
        id: string;
        organization_id: string;
        account_id: string;
        name: string;
        role: OrgRole;
        scopes: string[];
        allowed_actions: string[];
      }
    | undefined;
  if (!row) return null;
  return {
    id: row.id,
    organizationId: row.organization_id,
    serviceAccountId: row.account_id,
    accountName: row.name,
    role: row.role,
    scopes: row.scopes,
    allowedActions: row.allowed_actions,
  };
}
