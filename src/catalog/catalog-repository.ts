import type { Queryable } from '../db/knex';
import { insertOne } from '../db/owned-rows';
import { keysetPage, type Page, type PageRequest } from '../db/pagination';

/** What the catalog holds: kustomize bases (`/api/v2/org-kustomize-bases`) and manifest bundles. */
export type CatalogKind = 'kustomize-base' | 'manifest-bundle';

/** One version of a base or bundle, without its files (list entries, upload answers). */
export interface CatalogVersion {
  id: string;
  name: string;
  version: string;
  kubernetesVersion: string;
  fileCount: number;
  totalBytes: number;
  createdBy: string | null;
  createdAt: string;
}

/** A version with its files, path -> content. */
export interface CatalogVersionWithFiles extends CatalogVersion {
  files: Record<string, string>;
}

interface VersionRow {
  id: string;
  name: string;
  version: string;
  ref: string;
  kubernetes_version: string;
  file_count: number;
  total_bytes: number;
  created_by: string | null;
  created_at: Date;
}

const TABLE = 'catalog_artifacts';
const COLUMNS = [
  'id',
  'name',
  'version',
  'ref',
  'kubernetes_version',
  'file_count',
  'total_bytes',
  'created_by',
  'created_at',
] as const;

function rowToVersion(row: VersionRow): CatalogVersion {
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    kubernetesVersion: row.kubernetes_version,
    fileCount: row.file_count,
    totalBytes: row.total_bytes,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
  };
}

export interface NewCatalogVersion {
  name: string;
  version: string;
  kubernetesVersion: string;
  files: Record<string, string>;
  totalBytes: number;
  createdBy: string | null;
}

/** Inserts a version; the same name and version again answers 409 (versions are immutable). */
export async function insertCatalogVersion(
  db: Queryable,
  organizationId: string,
  kind: CatalogKind,
  input: NewCatalogVersion,
): Promise<CatalogVersion> {
  const row = await insertOne<VersionRow>(
    db(TABLE)
      .insert({
        organization_id: organizationId,
        kind,
        name: input.name,
        version: input.version,
        kubernetes_version: input.kubernetesVersion,
        files: JSON.stringify(input.files),
        file_count: Object.keys(input.files).length,
        total_bytes: input.totalBytes,
        created_by: input.createdBy,
      })
      .returning(COLUMNS),
    `${input.name} ${input.version} already exists`,
  );
  return rowToVersion(row);
}

/** Versions of the organization, by name then version; only those of `name` when given. */
export function listCatalogVersions(
  db: Queryable,
  organizationId: string,
  kind: CatalogKind,
  filter: { name?: string },
  page: PageRequest,
): Promise<Page<CatalogVersion>> {
  const query = db(TABLE).where({ organization_id: organizationId, kind }).select(COLUMNS);
  if (filter.name !== undefined) void query.where({ name: filter.name });
  return keysetPage<VersionRow, CatalogVersion>(query, ['ref', 'id'], page, (r) => [r.ref, r.id], rowToVersion);
}

export async function findCatalogVersion(
  db: Queryable,
  organizationId: string,
  kind: CatalogKind,
  name: string,
  version: string,
): Promise<CatalogVersionWithFiles | null> {
  const row = (await db(TABLE)
    .where({ organization_id: organizationId, kind, name, version })
    .first([...COLUMNS, 'files'])) as (VersionRow & { files: Record<string, string> }) | undefined;
  return row ? { ...rowToVersion(row), files: row.files } : null;
}

/** Deletes the versions of `name` (only `version` when given) and answers what was deleted. */
export async function deleteCatalogVersions(
  db: Queryable,
  organizationId: string,
  kind: CatalogKind,
  name: string,
  version?: string,
): Promise<CatalogVersion[]> {
  const query = db(TABLE).where({ organization_id: organizationId, kind, name });
  if (version !== undefined) void query.where({ version });
  const rows = (await query.delete().returning(COLUMNS)) as VersionRow[];
  return rows.map(rowToVersion);
}
