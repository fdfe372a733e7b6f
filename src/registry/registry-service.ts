// Over 400 lines: the OCI registry's write path (uploads, blobs, manifests, artifacts, garbage collection) over one
// blob store, sharing its repository, link and audit helpers.
import { Readable } from 'node:stream';
import type { AuditService } from '../audit/audit-service';
import type { AuditActor } from '../audit/types';
import type { RegistryConfig } from '../config/registry';
import type { Db, Tx } from '../db/knex';
import { DOMAIN_EVENT, recordDomainEvent, type DomainEventType } from '../events/domain-event-repository';
import { UploadTooLarge, type BlobStore } from './blob-store';
import { algorithmOf, isDigest } from './digest';
import { OCI_MANIFEST, isNondistributable, parseManifest, sha256Digest, type ParsedManifest } from './manifest';
import { OciError, asPlatformError } from './oci-errors';
import * as repo from './registry-repository';
import type { OciRepository } from './registry-repository';

/** Who acts, in which organization, on which repository (its name without the organization slug). */
export interface RegistryCaller extends AuditActor {
  organizationId: string;
}

/**
 * What another module does with pushes and deletions of manifests it owns (the catalog's kustomize bases and manifest
 * bundles): `pushed` runs before the push's transaction (reading layers, a kustomize build: nothing slow holds a
 * transaction) and refuses the push by throwing an OciError (nothing is stored); the step it may return runs in the
 * push's transaction to record it, and may refuse it the same way. `deleting` runs before a deletion and refuses it
 * the same way.
 */
export interface ManifestHook {
  pushed(
    caller: RegistryCaller,
    push: { name: string; tag: string | null; manifest: ParsedManifest },
  ): Promise<((trx: Tx) => Promise<void>) | void>;
  deleting(repository: OciRepository): void;
  /** After the push's transaction committed: work that follows a stored push (it must not throw). */
  stored?(caller: RegistryCaller, push: { name: string; tag: string | null; digest: string }): void;
}

/** A file of an artifact the platform writes itself: one layer, its path in the title annotation. */
export const TITLE_ANNOTATION = 'org.opencontainers.image.title';

export interface RegistryServiceDeps {
  db: Db;
  audit: AuditService;
  blobs: BlobStore;
  config: RegistryConfig;
}

const SWEEP_INTERVAL_MS = 60_000;

/**
 * The organization registry: repositories, blob uploads (streamed to the blob store, digest verified before anything
 * is linked), manifests, tags, referrers, quotas and garbage collection. Pushes and deletions are audited (category
 * configuration) in the transaction of the metadata change.
 */
export function createRegistryService(deps: RegistryServiceDeps) {
  const { db, blobs, config } = deps;
  let lastSweep = 0;
  /** Uploads a chunk is streaming into, in this process (several API processes would need a shared lock). */
  const appending = new Set<string>();
  const hooks: ManifestHook[] = [];

  function audit(trx: Tx, caller: RegistryCaller, action: string, name: string, details: Record<string, unknown>) {
    return deps.audit.append(trx, {
      organizationId: caller.organizationId,
      userId: caller.userId,
      actorType: caller.actorType,
      actor: caller.actor,
      requestId: caller.requestId,
      action,
      category: 'configuration',
      resourceType: 'oci_repository',
      resourceId: name,
      details,
    });
  }

  function event(trx: Tx, caller: RegistryCaller, type: DomainEventType, payload: Record<string, unknown>) {
    return recordDomainEvent(trx, { organizationId: caller.organizationId, projectId: null, type, payload });
  }

  async function ensureRepository(organizationId: string, name: string): Promise<OciRepository> {
    const existing = await repo.findRepository(db, organizationId, name);
    if (existing) return existing;
    if ((await repo.countRepositories(db, organizationId)) >= config.maxRepositoriesPerOrg) {
      throw new OciError(
        'TOOMANYREQUESTS',
        `the organization holds its limit of ${config.maxRepositoriesPerOrg} repositories: delete one first`,
      );
    }
    return repo.ensureRepository(db, organizationId, name);
  }

  async function requireUpload(repository: OciRepository, uploadId: string) {
    if (!(await repo.findUpload(db, uploadId, repository.id))) {
      throw new OciError('BLOB_UPLOAD_UNKNOWN', 'upload unknown or expired');
    }
  }

  const quotaFull = () =>
    new OciError('DENIED', `the organization's registry storage quota (${config.maxBytesPerOrg} bytes) is full`, 413);

  async function linkVerified(repository: OciRepository, digest: string, size: number, q: Tx | Db = db) {
    const already = await repo.isBlobLinkedInOrganization(q, repository.organizationId, digest);
    if (!already && (await repo.organizationBytes(q, repository.organizationId)) + size > config.maxBytesPerOrg) {
      throw quotaFull();
    }
    await repo.linkBlob(q, repository.id, digest, size);
  }

  /**
   * The bytes an upload may grow to: the blob size limit, or less when the organization's linked blobs and its other
   * unfinished uploads leave less of the storage quota (A-83: unfinished uploads count too).
   */
  async function uploadAllowance(repository: OciRepository, uploadId: string, digest: string | null) {
    // A blob the organization links already costs nothing more once committed (a mismatch is discarded).
    if (digest !== null && (await repo.isBlobLinkedInOrganization(db, repository.organizationId, digest))) {
      return { maxBytes: config.maxBlobBytes, byQuota: false };
    }
    const linked = await repo.organizationBytes(db, repository.organizationId);
    const others = await repo.organizationUploads(db, repository.organizationId, uploadId);
    const quota = config.maxBytesPerOrg - linked - others.bytes;
    return { maxBytes: Math.max(0, Math.min(config.maxBlobBytes, quota)), byQuota: quota < config.maxBlobBytes };
  }

  /**
   * Stores bytes the platform itself produced as a blob (through an upload file, like any push), under the blob's
   * shared lock until `trx`, which links it, ends.
   */
  async function putBlob(trx: Tx, content: Buffer): Promise<string> {
    const digest = sha256Digest(content);
    await repo.lockBlob(trx, digest, 'shared');
    const id = await blobs.startUpload();
    await blobs.appendUpload(id, Readable.from([content]), config.maxBlobBytes);
    await blobs.commitUpload(id, digest, digest);
    return digest;
  }

  async function recordPush(trx: Tx, caller: RegistryCaller, name: string, m: ParsedManifest, tag: string | null) {
    const details = { repository: name, digest: m.digest, tag, mediaType: m.mediaType };
    await audit(trx, caller, 'registry.manifest.push', name, details);
    await event(trx, caller, DOMAIN_EVENT.registryManifestPushed, details);
  }

  /** The body of `storeArtifact`: blobs, manifest and tag in the caller's transaction. */
  async function writeArtifact(
    trx: Tx,
    caller: RegistryCaller,
    target: { name: string; tag: string; configMediaType: string; layerMediaType: string },
    files: Record<string, string>,
  ) {
    const repository = await ensureRepository(caller.organizationId, target.name);
    const descriptor = async (mediaType: string, content: Buffer, annotations?: Record<string, string>) => {
      const digest = await putBlob(trx, content);
      await linkVerified(repository, digest, content.length, trx);
      return { mediaType, digest, size: content.length, ...(annotations ? { annotations } : {}) };
    };
    const layers = [];
    for (const [file, text] of Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1))) {
      layers.push(await descriptor(target.layerMediaType, Buffer.from(text), { [TITLE_ANNOTATION]: file }));
    }
    const manifest = {
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: await descriptor(target.configMediaType, Buffer.from('{}')),
      layers,
    };
    const content = Buffer.from(JSON.stringify(manifest));
    const parsed = parseManifest(content, OCI_MANIFEST);
    await repo.putManifest(trx, repository.id, { ...parsed, content, tag: target.tag });
    await recordPush(trx, caller, target.name, parsed, target.tag);
  }

  const service = {
    blobs,
    findRepository: (organizationId: string, name: string) => repo.findRepository(db, organizationId, name),
    /** Every tag of a repository with the digest it names and when that manifest was stored (watch policies). */
    async taggedDigests(organizationId: string, name: string) {
      const repository = await repo.findRepository(db, organizationId, name);
      return repository ? repo.listTagDigests(db, repository.id) : [];
    },

    /** Size of a blob the repository links and the store holds, null otherwise. */
    async blobSize(repository: OciRepository, digest: string): Promise<number | null> {
      const size = await repo.linkedBlobSize(db, repository.id, digest);
      return size === null ? null : blobs.stat(digest);
    },

    async startUpload(organizationId: string, name: string) {
      await service.expireUploads();
      const repository = await ensureRepository(organizationId, name);
      if ((await repo.organizationUploads(db, organizationId)).count >= config.maxUploadsPerOrg) {
        throw new OciError(
          'TOOMANYREQUESTS',
          `the organization holds its limit of ${config.maxUploadsPerOrg} unfinished uploads: finish or cancel one`,
        );
      }
      const uploadId = await blobs.startUpload();
      await repo.insertUpload(db, uploadId, repository.id);
      return { repository, uploadId };
    },

    uploadSize: async (repository: OciRepository, uploadId: string) => {
      await requireUpload(repository, uploadId);
      return (await blobs.uploadSize(uploadId)) ?? 0;
    },

    /**
     * Appends a chunk; `start` (from Content-Range) must be where the upload ends now; `digest` is the one the client
     * announced with the last chunk, if any.
     */
    async appendUpload(
      repository: OciRepository,
      uploadId: string,
      body: Readable,
      start: number | null,
      digest: string | null = null,
    ) {
      const size = await service.uploadSize(repository, uploadId);
      if (start !== null && start !== size) {
        throw new OciError('BLOB_UPLOAD_INVALID', `chunk starts at ${start} but the upload holds ${size} bytes`, 416);
      }
      // Chunks of one upload are sequential: a second one while the first streams would interleave the bytes.
      if (appending.has(uploadId))
        throw new OciError('BLOB_UPLOAD_INVALID', 'a chunk of this upload is in progress', 416);
      appending.add(uploadId);
      const allowance = await uploadAllowance(repository, uploadId, digest);
      try {
        const appended = await blobs.appendUpload(uploadId, body, allowance.maxBytes);
        await repo.touchUpload(db, uploadId, appended.size);
        return appended;
      } catch (err) {
        if (err instanceof UploadTooLarge) {
          await service.cancelUpload(repository, uploadId);
          if (allowance.byQuota) throw quotaFull();
          throw new OciError('SIZE_INVALID', `a blob may hold at most ${config.maxBlobBytes} bytes`, 413);
        }
        throw err;
      } finally {
        appending.delete(uploadId);
      }
    },

    /**
     * Verifies the digest of the finished upload (`hashed`: computed while a single request streamed it all); a
     * mismatch deletes it and stores nothing.
     */
    async finishUpload(repository: OciRepository, uploadId: string, digest: string, hashed: string | null = null) {
      await requireUpload(repository, uploadId);
      await repo.deleteUpload(db, uploadId);
      // Hashed before the lock: a large chunked upload must not hold a transaction while it is read again.
      const algorithm = algorithmOf(digest);
      const digestOfContent = hashed?.startsWith(`${algorithm}:`)
        ? hashed
        : await blobs.hashUpload(uploadId, algorithm);
      // Committed and linked under the blob's shared lock: the garbage collector cannot remove it in between.
      return db.transaction(async (trx) => {
        await repo.lockBlob(trx, digest, 'shared');
        const size = await blobs.commitUpload(uploadId, digest, digestOfContent);
        if (size === null) throw new OciError('DIGEST_INVALID', 'the uploaded content does not match the digest');
        await linkVerified(repository, digest, size, trx);
        return size;
      });
    },

    async cancelUpload(repository: OciRepository, uploadId: string) {
      await requireUpload(repository, uploadId);
      await repo.deleteUpload(db, uploadId);
      await blobs.deleteUpload(uploadId);
    },

    /** Links a blob of another repository of the same organization; false when there is nothing to mount. */
    async mountBlob(organizationId: string, name: string, from: string, digest: string): Promise<boolean> {
      const source = await repo.findRepository(db, organizationId, from);
      const size = source ? await service.blobSize(source, digest) : null;
      if (size === null) return false;
      await linkVerified(await ensureRepository(organizationId, name), digest, size);
      return true;
    },

    async deleteBlob(caller: RegistryCaller, repository: OciRepository, digest: string) {
      await db.transaction(async (trx) => {
        if (!(await repo.unlinkBlob(trx, repository.id, digest))) throw new OciError('BLOB_UNKNOWN', 'blob unknown');
        await audit(trx, caller, 'registry.blob.delete', repository.name, { digest });
      });
    },

    /** Stores a manifest after checking that every blob and child manifest it names is in the repository. */
    async putManifest(caller: RegistryCaller, name: string, reference: string, content: Buffer, contentType: string) {
      const byDigest = isDigest(reference);
      const parsed: ParsedManifest = parseManifest(content, contentType, byDigest ? algorithmOf(reference) : 'sha256');
      if (byDigest && reference !== parsed.digest) {
        throw new OciError('DIGEST_INVALID', 'the manifest does not match the digest in the URL');
      }
      const repository = await ensureRepository(caller.organizationId, name);
      for (const blob of parsed.blobs) {
        // Non-distributable layers live elsewhere (their `urls`): the image spec lets a registry skip them.
        if (isNondistributable(blob.mediaType)) continue;
        if ((await service.blobSize(repository, blob.digest)) === null) {
          throw new OciError('MANIFEST_BLOB_UNKNOWN', `blob ${blob.digest} is not in the repository`);
        }
      }
      for (const child of parsed.manifests) {
        if (!(await repo.findManifest(db, repository.id, child.digest))) {
          throw new OciError('MANIFEST_UNKNOWN', `manifest ${child.digest} is not in the repository`, 400);
        }
      }
      const tag = byDigest ? null : reference;
      const records: ((trx: Tx) => Promise<void>)[] = [];
      for (const hook of hooks) {
        const record = await hook.pushed(caller, { name, tag, manifest: parsed });
        if (record) records.push(record);
      }
      await db.transaction(async (trx) => {
        await repo.putManifest(trx, repository.id, { ...parsed, content, tag });
        await recordPush(trx, caller, name, parsed, tag);
        for (const record of records) await record(trx);
      });
      for (const hook of hooks) hook.stored?.(caller, { name, tag, digest: parsed.digest });
      return parsed;
    },

    addManifestHook(hook: ManifestHook) {
      hooks.push(hook);
    },

    /**
     * Writes an artifact the platform holds elsewhere (an API-uploaded catalog version) into the registry in the
     * caller's transaction, so OCI clients pull it: an OCI manifest with config `{}` of `configMediaType` and one
     * layer per file (`layerMediaType`, path in the title annotation), tagged `tag`. Hooks do not run.
     */
    async storeArtifact(
      trx: Tx,
      caller: RegistryCaller,
      target: { name: string; tag: string; configMediaType: string; layerMediaType: string },
      files: Record<string, string>,
    ) {
      try {
        await writeArtifact(trx, caller, target, files);
      } catch (err) {
        throw err instanceof OciError ? asPlatformError(err) : err;
      }
    },
    /** Deletes the manifest a tag names (the artifact of a deleted catalog version), in the caller's transaction. */
    async removeArtifact(trx: Tx, caller: RegistryCaller, name: string, tag: string) {
      const repository = await repo.findRepository(trx, caller.organizationId, name);
      const manifest = repository ? await repo.findManifest(trx, repository.id, tag) : null;
      if (!repository || !manifest) return;
      await repo.deleteManifest(trx, repository.id, manifest.digest);
      const details = { repository: name, reference: manifest.digest };
      await audit(trx, caller, 'registry.manifest.delete', name, details);
      await event(trx, caller, DOMAIN_EVENT.registryManifestDeleted, details);
    },

    getManifest: (repository: OciRepository, reference: string) => repo.findManifest(db, repository.id, reference),

    /** Deletes a manifest by digest, or only a tag when the reference is a tag. */
    async deleteManifest(caller: RegistryCaller, repository: OciRepository, reference: string) {
      for (const hook of hooks) hook.deleting(repository);
      await db.transaction(async (trx) => {
        const deleted = isDigest(reference)
          ? await repo.deleteManifest(trx, repository.id, reference)
          : await repo.deleteTag(trx, repository.id, reference);
        if (!deleted) throw new OciError('MANIFEST_UNKNOWN', 'manifest unknown');
        const details = { repository: repository.name, reference };
        await audit(trx, caller, 'registry.manifest.delete', repository.name, details);
        await event(trx, caller, DOMAIN_EVENT.registryManifestDeleted, details);
      });
    },

    listTags: (repository: OciRepository, last: string | null, n: number) => repo.listTags(db, repository.id, last, n),
    listReferrers: (repository: OciRepository, digest: string, artifactType?: string) =>
      repo.listReferrers(db, repository.id, digest, artifactType),
    catalog: (organizationId: string, last: string | null, n: number) =>
      repo.listRepositoryNames(db, organizationId, last, n),

    /** Removes uploads untouched for REGISTRY_UPLOAD_TTL_SECONDS (at most once a minute unless `force`). */
    async expireUploads(force = false): Promise<number> {
      if (!force && Date.now() - lastSweep < SWEEP_INTERVAL_MS) return 0;
      lastSweep = Date.now();
      const stale = await repo.takeStaleUploads(db, new Date(Date.now() - config.uploadTtlSeconds * 1000));
      for (const id of stale) await blobs.deleteUpload(id);
      return stale.length;
    },

    /**
     * Operator garbage collection, safe while pushes run: deletes stored blobs no repository links that were stored
     * more than `graceSeconds` ago (REGISTRY_GC_GRACE_SECONDS), each checked and removed under the blob's exclusive
     * lock (a push commits and links under the shared one), and expired uploads (uploads in progress are kept).
     */
    async collectGarbage(graceSeconds = config.gcGraceSeconds) {
      const uploadsExpired = await service.expireUploads(true);
      const before = Date.now() - graceSeconds * 1000;
      let blobsRemoved = 0;
      let bytesFreed = 0;
      let blobsInGrace = 0;
      for await (const digest of blobs.list()) {
        if (await repo.isBlobLinked(db, digest)) continue;
        const removed = await db.transaction(async (trx) => {
          await repo.lockBlob(trx, digest, 'exclusive');
          const storedAt = await blobs.storedAt(digest);
          if (storedAt === null || (await repo.isBlobLinked(trx, digest))) return null;
          if (storedAt.getTime() > before) return 'grace';
          const size = (await blobs.stat(digest)) ?? 0;
          await blobs.remove(digest);
          return size;
        });
        if (removed === 'grace') blobsInGrace += 1;
        else if (removed !== null) {
          bytesFreed += removed;
          blobsRemoved += 1;
        }
      }
      return { blobsRemoved, bytesFreed, blobsInGrace, uploadsExpired };
    },
  };
  return service;
}
export type RegistryService = ReturnType<typeof createRegistryService>;
