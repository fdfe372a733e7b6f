import type { Queryable } from '../db/knex';
import { insertOne } from '../db/owned-rows';

/** An external OCI registry of an organization, as stored (the password stays sealed here). */
export interface RegistryRow {
  id: string;
  organization_id: string;
  name: string;
  url: string;
  username: string | null;
  password_sealed: string | null;
  created_at: Date;
}

/**
 * What the last poll saw of one repository: the tag list's ETag, each tag's first sighting, and the image creation
 * time of the manifests read for a `created` order (by digest; null: the image has none).
 */
export interface RepositoryState {
  etag: string | null;
  tags: Record<string, string>;
  created: Record<string, string | null>;
}

const COLUMNS = ['id', 'organization_id', 'name', 'url', 'username', 'password_sealed', 'created_at'];

export async function listRegistries(db: Queryable, organizationId: string): Promise<RegistryRow[]> {
  return (await db('watch_registries')
    .where('organization_id', organizationId)
    .orderBy('name')
    .select(COLUMNS)) as RegistryRow[];
}

/** Every registry of every organization (the reconciler that keeps one poll workflow per registry). */
export async function allRegistries(db: Queryable): Promise<Pick<RegistryRow, 'id' | 'organization_id' | 'name'>[]> {
  return (await db('watch_registries').orderBy('id').select(['id', 'organization_id', 'name'])) as RegistryRow[];
}

export async function findRegistry(db: Queryable, organizationId: string, ref: { id: string } | { name: string }) {
  const row = (await db('watch_registries')
    .where({ organization_id: organizationId, ...ref })
    .first(COLUMNS)) as RegistryRow | undefined;
  return row ?? null;
}

export async function insertRegistry(
  db: Queryable,
  organizationId: string,
  input: { id: string; name: string; url: string; username: string | null; passwordSealed: string | null },
): Promise<void> {
  await insertOne(
    db('watch_registries')
      .insert({
        id: input.id,
        organization_id: organizationId,
        name: input.name,
        url: input.url,
        username: input.username,
        password_sealed: input.passwordSealed,
      })
      .returning(['id']),
    `a registry named ${input.name} already exists`,
  );
}

export async function deleteRegistry(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await db('watch_registries').where({ organization_id: organizationId, id }).delete()) > 0;
}

export async function repositoryStates(db: Queryable, registryId: string): Promise<Map<string, RepositoryState>> {
  const rows = (await db('watch_registry_repositories')
    .where('registry_id', registryId)
    .select(['repository', 'etag', 'tags', 'created'])) as (RepositoryState & { repository: string })[];
  return new Map(rows.map((r) => [r.repository, { etag: r.etag, tags: r.tags, created: r.created }]));
}

export async function saveRepositoryState(
  db: Queryable,
  registryId: string,
  repository: string,
  state: RepositoryState,
): Promise<void> {
  await db('watch_registry_repositories')
    .insert({
      registry_id: registryId,
      repository,
      etag: state.etag,
      tags: JSON.stringify(state.tags),
      created: JSON.stringify(state.created),
      polled_at: db.fn.now(),
    })
    .onConflict(['registry_id', 'repository'])
    .merge(['etag', 'tags', 'created', 'polled_at']);
}
