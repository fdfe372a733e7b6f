import type { Queryable } from '../db/knex';
import { refuseAtLimit, type RowLimit } from '../db/row-limit';
import type { KeyScope } from './key-allowlist';

export interface ApiKey {
  id: string;
  projectId: string;
  name: string;
  scopes: KeyScope[];
  createdBy: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

interface Row {
  id: string;
  project_id: string;
  name: string;
  scopes: KeyScope[];
  created_by: string | null;
  created_at: Date;
  last_used_at: Date | null;
}

const COLUMNS = ['id', 'project_id', 'name', 'scopes', 'created_by', 'created_at', 'last_used_at'] as const;

function toKey(row: Row): ApiKey {
  return {
    id: row.id,
    projectId: row.project_id,
    name: row.name,
    scopes: row.scopes,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
  };
}

export interface NewApiKey {
  organizationId: string;
  projectId: string;
  name: string;
  scopes: KeyScope[];
  secretHash: Buffer;
  createdBy: string | null;
}

/** Checked on create (docs/operations.md "Limits"), so the unpaged list below holds every key. */
const KEYS_PER_PROJECT: RowLimit = {
  max: 1000,
  message: 'a project holds at most 1000 API keys (limit "API keys per project")',
};

const keysOf = (db: Queryable, organizationId: string, projectId: string) =>
  db('project_api_keys').where({ organization_id: organizationId, project_id: projectId });

export async function insertApiKey(db: Queryable, key: NewApiKey): Promise<ApiKey> {
  await refuseAtLimit(keysOf(db, key.organizationId, key.projectId), KEYS_PER_PROJECT);
  const [row] = (await db('project_api_keys')
    .insert({
      organization_id: key.organizationId,
      project_id: key.projectId,
      name: key.name,
      scopes: key.scopes,
      secret_hash: key.secretHash,
      created_by: key.createdBy,
    })
    .returning(COLUMNS)) as Row[];
  return toKey(row!);
}

/** A project has few keys (each is a deliberate credential, at most KEYS_PER_PROJECT), so the list is not paged. */
export async function listApiKeys(db: Queryable, organizationId: string, projectId: string): Promise<ApiKey[]> {
  const rows = (await keysOf(db, organizationId, projectId).orderBy('created_at').select(COLUMNS)) as Row[];
  return rows.map(toKey);
}

export async function deleteApiKey(
  db: Queryable,
  organizationId: string,
  projectId: string,
  id: string,
): Promise<ApiKey | null> {
  const [row] = (await db('project_api_keys')
    .where({ organization_id: organizationId, project_id: projectId, id })
    .delete()
    .returning(COLUMNS)) as Row[];
  return row ? toKey(row) : null;
}

/** One key of the organization by id; null once deleted. */
export async function findKeyById(db: Queryable, organizationId: string, id: string): Promise<ApiKey | null> {
  const row = (await db('project_api_keys').where({ organization_id: organizationId, id }).first(COLUMNS)) as
    Row | undefined;
  return row ? toKey(row) : null;
}

/** The key a presented value names (by its hash); null for an unknown or deleted key. */
export async function findKeyByHash(
  db: Queryable,
  secretHash: Buffer,
): Promise<(ApiKey & { organizationId: string }) | null> {
  const row = (await db('project_api_keys')
    .where('secret_hash', secretHash)
    .first([...COLUMNS, 'organization_id'])) as (Row & { organization_id: string }) | undefined;
  return row ? { ...toKey(row), organizationId: row.organization_id } : null;
}
