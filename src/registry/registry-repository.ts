import type { Queryable } from '../db/knex';
import { isDigest } from './digest';
import type { ManifestFields } from './manifest';
import { takeAdvisoryLock, type LockMode } from '../db/advisory-lock';

export interface OciRepository {
  id: string;
  organizationId: string;
  name: string;
}

export interface StoredManifest extends ManifestFields {
  content: Buffer;
}

export interface ManifestInput extends StoredManifest {
  /** Tag to point at it, or null for a push by digest. */
  tag: string | null;
}

interface RepoRow {
  id: string;
  organization_id: string;
  name: string;
}
const toRepo = (r: RepoRow): OciRepository => ({ id: r.id, organizationId: r.organization_id, name: r.name });

export async function findRepository(db: Queryable, organizationId: string, name: string) {
  const row = (await db('oci_repositories').where({ organization_id: organizationId, name }).first()) as
    RepoRow | undefined;
  return row ? toRepo(row) : null;
}

/** The repository, created on first push. */
export async function ensureRepository(db: Queryable, organizationId: string, name: string) {
  await db('oci_repositories').insert({ organization_id: organizationId, name }).onConflict().ignore();
  return (await findRepository(db, organizationId, name))!;
}

export async function countRepositories(db: Queryable, organizationId: string): Promise<number> {
  const row = (await db('oci_repositories').where({ organization_id: organizationId }).count('* as n').first()) as {
    n: string;
  };
  return Number(row.n);
}

/** Repository names of an organization in order, after `last`, at most `limit`. */
export async function listRepositoryNames(db: Queryable, organizationId: string, last: string | null, limit: number) {
  const q = db('oci_repositories').where({ organization_id: organizationId }).orderBy('name').limit(limit);
  if (last !== null) void q.where('name', '>', last);
  return ((await q.select('name')) as { name: string }[]).map((r) => r.name);
}

export async function linkBlob(db: Queryable, repositoryId: string, digest: string, size: number) {
  await db('oci_repository_blobs').insert({ repository_id: repositoryId, digest, size }).onConflict().ignore();
}

export async function linkedBlobSize(db: Queryable, repositoryId: string, digest: string): Promise<number | null> {
  const row = (await db('oci_repository_blobs').where({ repository_id: repositoryId, digest }).first('size')) as
    { size: string } | undefined;
  return row ? Number(row.size) : null;
}

export async function unlinkBlob(db: Queryable, repositoryId: string, digest: string): Promise<boolean> {
  return (await db('oci_repository_blobs').where({ repository_id: repositoryId, digest }).delete()) > 0;
}

/** Bytes the organization's repositories link, each distinct blob once (the storage quota). */
export async function organizationBytes(db: Queryable, organizationId: string): Promise<number> {
  const row = (await db
    .from(
      db('oci_repository_blobs as b')
        .join('oci_repositories as r', 'r.id', 'b.repository_id')
        .where('r.organization_id', organizationId)
        .distinct('b.digest', 'b.size')
        .as('d'),
    )
    .sum('size as total')
    .first()) as { total: string | null };
  return Number(row.total ?? 0);
}

/**
 * Serializes the garbage collector's check-and-remove of a blob (`exclusive`) with the commit-and-link of a push
 * (`shared`, pushes of the same digest do not wait on one another), until the transaction ends.
 */
export async function lockBlob(trx: Queryable, digest: string, mode: LockMode): Promise<void> {
  await takeAdvisoryLock(trx, `registry-blob:${digest}`, mode);
}

/** Whether any repository links the digest (garbage collection keeps it). */
export async function isBlobLinked(db: Queryable, digest: string): Promise<boolean> {
  return (await db('oci_repository_blobs').where({ digest }).first('digest')) !== undefined;
}

/** Whether a repository of the organization links the digest already (it then costs no more quota). */
export async function isBlobLinkedInOrganization(db: Queryable, organizationId: string, digest: string) {
  const row: unknown = await db('oci_repository_blobs as b')
    .join('oci_repositories as r', 'r.id', 'b.repository_id')
    .where({ 'r.organization_id': organizationId, 'b.digest': digest })
    .first('b.digest');
  return row !== undefined;
}

export async function putManifest(db: Queryable, repositoryId: string, m: ManifestInput) {
  await db('oci_manifests')
    .insert({
      repository_id: repositoryId,
      digest: m.digest,
      media_type: m.mediaType,
      artifact_type: m.artifactType,
      config_media_type: m.configMediaType,
      subject_digest: m.subjectDigest,
      annotations: m.annotations === null ? null : JSON.stringify(m.annotations),
      content: m.content,
    })
    .onConflict(['repository_id', 'digest'])
    .ignore();
  if (m.tag !== null) {
    await db('oci_tags')
      .insert({ repository_id: repositoryId, name: m.tag, manifest_digest: m.digest, updated_at: db.fn.now() })
      .onConflict(['repository_id', 'name'])
      .merge();
  }
}

interface ManifestRow {
  digest: string;
  media_type: string;
  artifact_type: string | null;
  config_media_type: string | null;
  subject_digest: string | null;
  annotations: Record<string, string> | null;
  content: Buffer;
}
const toManifest = (r: ManifestRow): StoredManifest => ({
  digest: r.digest,
  mediaType: r.media_type,
  artifactType: r.artifact_type,
  configMediaType: r.config_media_type,
  subjectDigest: r.subject_digest,
  annotations: r.annotations,
  content: r.content,
});

/** A manifest by digest, or by tag when `reference` is not a digest. */
export async function findManifest(db: Queryable, repositoryId: string, reference: string) {
  const q = db('oci_manifests as m').where('m.repository_id', repositoryId).select('m.*');
  if (isDigest(reference)) void q.where('m.digest', reference);
  else {
    void q
      .join('oci_tags as t', (j) => {
        j.on('t.repository_id', '=', 'm.repository_id').andOn('t.manifest_digest', '=', 'm.digest');
      })
      .where('t.name', reference);
  }
  const row = (await q.first()) as ManifestRow | undefined;
  return row ? toManifest(row) : null;
}

export async function deleteManifest(db: Queryable, repositoryId: string, digest: string): Promise<boolean> {
  await db('oci_tags').where({ repository_id: repositoryId, manifest_digest: digest }).delete();
  return (await db('oci_manifests').where({ repository_id: repositoryId, digest }).delete()) > 0;
}

export async function deleteTag(db: Queryable, repositoryId: string, tag: string): Promise<boolean> {
  return (await db('oci_tags').where({ repository_id: repositoryId, name: tag }).delete()) > 0;
}

export async function listTags(db: Queryable, repositoryId: string, last: string | null, limit: number) {
  const q = db('oci_tags').where({ repository_id: repositoryId }).orderBy('name').limit(limit);
  if (last !== null) void q.where('name', '>', last);
  return ((await q.select('name')) as { name: string }[]).map((r) => r.name);
}

/** Tags with the digest each names and when that manifest was stored. */
export async function listTagDigests(db: Queryable, repositoryId: string) {
  const rows = (await db('oci_tags as t')
    .join('oci_manifests as m', (j) => {
      j.on('m.repository_id', '=', 't.repository_id').andOn('m.digest', '=', 't.manifest_digest');
    })
    .where('t.repository_id', repositoryId)
    .orderBy('t.name')
    .select('t.name as tag', 'm.digest', 'm.created_at')) as { tag: string; digest: string; created_at: Date }[];
  return rows.map((r) => ({ tag: r.tag, digest: r.digest, createdAt: r.created_at }));
}

/** Tags with the manifest each points at, for the chart catalog. */
export async function listTaggedManifests(db: Queryable, repositoryId: string) {
  const rows = (await db('oci_tags as t')
    .join('oci_manifests as m', (j) => {
      j.on('m.repository_id', '=', 't.repository_id').andOn('m.digest', '=', 't.manifest_digest');
    })
    .where('t.repository_id', repositoryId)
    .orderBy('t.name')
    .select('t.name as tag', 'm.*')) as (ManifestRow & { tag: string })[];
  return rows.map((r) => ({ tag: r.tag, manifest: toManifest(r) }));
}

export async function listReferrers(db: Queryable, repositoryId: string, subject: string, artifactType?: string) {
  const q = db('oci_manifests').where({ repository_id: repositoryId, subject_digest: subject }).orderBy('digest');
  if (artifactType !== undefined) void q.where('artifact_type', artifactType);
  return ((await q.select('*')) as ManifestRow[]).map(toManifest);
}

/** Repositories of the organization holding manifests of the given media type (the chart catalog). */
export async function repositoriesWithMediaType(db: Queryable, organizationId: string, configMediaType: string) {
  const rows = (await db('oci_repositories as r')
    .where('r.organization_id', organizationId)
    .whereExists(
      db('oci_manifests as m')
        .whereRaw('m.repository_id = r.id')
        .where('m.config_media_type', configMediaType)
        .select(db.raw('1')),
    )
    .orderBy('r.name')
    .select('r.*')) as RepoRow[];
  return rows.map(toRepo);
}

export async function deleteRepository(db: Queryable, repositoryId: string) {
  await db('oci_repositories').where({ id: repositoryId }).delete();
}

export async function insertUpload(db: Queryable, id: string, repositoryId: string) {
  await db('oci_uploads').insert({ id, repository_id: repositoryId });
}

export async function findUpload(db: Queryable, id: string, repositoryId: string) {
  return ((await db('oci_uploads').where({ id, repository_id: repositoryId }).first('id')) as
    { id: string } | undefined)
    ? id
    : null;
}

/** Unfinished uploads of the organization and the bytes they hold (they count against the storage quota). */
export async function organizationUploads(db: Queryable, organizationId: string, except: string | null = null) {
  const q = db('oci_uploads as u')
    .join('oci_repositories as r', 'r.id', 'u.repository_id')
    .where('r.organization_id', organizationId);
  if (except !== null) void q.whereNot('u.id', except);
  const row = (await q.count('* as n').sum('u.size as bytes').first()) as { n: string; bytes: string | null };
  return { count: Number(row.n), bytes: Number(row.bytes ?? 0) };
}

export async function touchUpload(db: Queryable, id: string, size: number) {
  await db('oci_uploads').where({ id }).update({ size, updated_at: db.fn.now() });
}

export async function deleteUpload(db: Queryable, id: string) {
  await db('oci_uploads').where({ id }).delete();
}

/** Uploads untouched since `before`, removed from the table and returned so their files can go too. */
export async function takeStaleUploads(db: Queryable, before: Date): Promise<string[]> {
  const rows = (await db('oci_uploads').where('updated_at', '<', before).delete().returning('id')) as { id: string }[];
  return rows.map((r) => r.id);
}
