import { createHash, randomUUID } from 'node:crypto';
import { appendMeter, type BlobStore } from './blob-store';
import { DIGEST_ALGORITHMS, algorithmOf, type DigestAlgorithm } from './digest';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

async function hashFile(file: string, algorithm: DigestAlgorithm): Promise<string> {
  const hash = createHash(algorithm);
  await pipeline(createReadStream(file), hash);
  return `${algorithm}:${hash.digest('hex')}`;
}

/**
 * The embedded default: `<DATA_DIR>/registry/blobs/<algorithm>/<2 hex>/<hex>`, content addressed and shared by every
 * repository, and `<DATA_DIR>/registry/uploads/<uuid>` for uploads in progress. Bodies are streamed to disk.
 */
export function createFilesystemBlobStore(dataDir: string): BlobStore {
  const root = path.join(dataDir, 'registry');
  const uploads = path.join(root, 'uploads');
  const blobs = path.join(root, 'blobs');
  const uploadPath = (id: string) => path.join(uploads, id);
  const blobPath = (digest: string) => {
    const algorithm = algorithmOf(digest);
    const hex = digest.slice(algorithm.length + 1);
    return path.join(blobs, algorithm, hex.slice(0, 2), hex);
  };
  const sizeOf = (file: string) =>
    fs.stat(file).then(
      (s) => s.size,
      () => null,
    );

  return {
    // DATA_DIR is this process's own: nothing to prove about it.
    check: () => Promise.resolve(null),
    async startUpload() {
      await fs.mkdir(uploads, { recursive: true });
      const id = randomUUID();
      await fs.writeFile(uploadPath(id), '');
      return id;
    },
    async appendUpload(id, body, maxBytes) {
      const meter = appendMeter((await sizeOf(uploadPath(id))) ?? 0, maxBytes);
      await pipeline(body, meter.transform, createWriteStream(uploadPath(id), { flags: 'a' }));
      return meter.result();
    },
    uploadSize: (id) => sizeOf(uploadPath(id)),
    hashUpload: (id, algorithm) => hashFile(uploadPath(id), algorithm),
    async commitUpload(id, digest, hashed) {
      const file = uploadPath(id);
      const algorithm = algorithmOf(digest);
      const actual = hashed?.startsWith(`${algorithm}:`) ? hashed : await hashFile(file, algorithm);
      if (actual !== digest) {
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
      for (const algorithm of DIGEST_ALGORITHMS) {
        const root = path.join(blobs, algorithm);
        const dirs = await fs.readdir(root).catch(() => [] as string[]);
        for (const dir of dirs) for (const hex of await fs.readdir(path.join(root, dir))) yield `${algorithm}:${hex}`;
      }
    },
  };
}
