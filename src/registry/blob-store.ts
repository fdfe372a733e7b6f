import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** `sha256:<64 hex>`, the only algorithm the registry accepts (the one every client sends). */
export const DIGEST = /^sha256:[a-f0-9]{64}$/;

/**
 * The one module that knows where registry bytes live: `<DATA_DIR>/registry/blobs/sha256/<2 hex>/<64 hex>`, content
 * addressed and shared by every repository (the database says which repository links which digest), and
 * `<DATA_DIR>/registry/uploads/<uuid>` for uploads in progress. Callers never build paths, so shared or object storage
 * can replace this module alone. Bodies are streamed to disk, never held in memory.
 */
export interface BlobStore {
  /** Creates an empty upload file and returns its id. */
  startUpload(): Promise<string>;
  /**
   * Appends a request body to an upload (refused beyond `maxBytes` in all); returns the upload's new size and, when the
   * upload was empty before, the digest of its whole content, hashed on the way (no second read at commit).
   */
  appendUpload(id: string, body: Readable, maxBytes: number): Promise<{ size: number; digest: string | null }>;
  uploadSize(id: string): Promise<number | null>;
  /** The digest of an upload's whole content. */
  hashUpload(id: string): Promise<string>;
  /**
   * Hashes the upload (or takes `hashed`, the digest appendUpload computed); when it matches `digest` moves it into
   * place and returns its size, otherwise deletes it and returns null.
   */
  commitUpload(id: string, digest: string, hashed: string | null): Promise<number | null>;
  deleteUpload(id: string): Promise<void>;
  /** Size of a stored blob, null when absent. */
  stat(digest: string): Promise<number | null>;
  /** When the blob was last stored (a commit of the same content again renews it), null when absent. */
  storedAt(digest: string): Promise<Date | null>;
  /** Reads a stored blob, optionally bytes `start..end` inclusive. */
  read(digest: string, range?: { start: number; end: number }): Readable;
  remove(digest: string): Promise<void>;
  /** Every stored digest (for garbage collection). */
  list(): AsyncGenerator<string>;
}

export class UploadTooLarge extends Error {}

async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return `sha256:${hash.digest('hex')}`;
}

export function createBlobStore(dataDir: string): BlobStore {
  const root = path.join(dataDir, 'registry');
  const uploads = path.join(root, 'uploads');
  const blobs = path.join(root, 'blobs', 'sha256');
  const uploadPath = (id: string) => path.join(uploads, id);
  const blobPath = (digest: string) => {
    const hex = digest.slice('sha256:'.length);
    return path.join(blobs, hex.slice(0, 2), hex);
  };
  const sizeOf = (file: string) =>
    fs.stat(file).then(
      (s) => s.size,
      () => null,
    );

  return {
    async startUpload() {
      await fs.mkdir(uploads, { recursive: true });
      const id = randomUUID();
      await fs.writeFile(uploadPath(id), '');
      return id;
    },
    async appendUpload(id, body, maxBytes) {
      const before = (await sizeOf(uploadPath(id))) ?? 0;
      let written = 0;
      const hash = before === 0 ? createHash('sha256') : null;
      // A transform in the pipeline (not a 'data' listener, which would switch off backpressure) counts and hashes.
      const limit = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          written += chunk.length;
          hash?.update(chunk);
          done(before + written > maxBytes ? new UploadTooLarge('upload too large') : null, chunk);
        },
      });
      await pipeline(body, limit, createWriteStream(uploadPath(id), { flags: 'a' }));
      return { size: before + written, digest: hash ? `sha256:${hash.digest('hex')}` : null };
    },
    uploadSize: (id) => sizeOf(uploadPath(id)),
    hashUpload: (id) => hashFile(uploadPath(id)),
    async commitUpload(id, digest, hashed) {
      const file = uploadPath(id);
      if ((hashed ?? (await hashFile(file))) !== digest) {
        await fs.rm(file, { force: true });
        return null;
      }
      const target = blobPath(digest);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.rename(file, target);
      // The upload file's time is its last chunk's; the garbage collector's grace period counts from the commit.
      const now = new Date();
      await fs.utimes(target, now, now);
      return sizeOf(target);
    },
    deleteUpload: (id) => fs.rm(uploadPath(id), { force: true }),
    stat: (digest) => sizeOf(blobPath(digest)),
    storedAt: (digest) =>
      fs.stat(blobPath(digest)).then(
        (s) => s.mtime,
        () => null,
      ),
    read: (digest, range) => createReadStream(blobPath(digest), range),
    remove: (digest) => fs.rm(blobPath(digest), { force: true }),
    async *list() {
      const dirs = await fs.readdir(blobs).catch(() => [] as string[]);
      for (const dir of dirs) for (const hex of await fs.readdir(path.join(blobs, dir))) yield `sha256:${hex}`;
    },
  };
}
