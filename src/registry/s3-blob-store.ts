import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { ObjectStoreConfig } from '../config/registry';
import { appendMeter, type BlobStore } from './blob-store';
import { DIGEST_ALGORITHMS, algorithmOf, type DigestAlgorithm } from './digest';

interface StoredObject {
  key: string;
  size: number;
}

const total = (parts: StoredObject[]) => parts.reduce((sum, p) => sum + p.size, 0);
const notFound = (err: unknown) =>
  (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/**
 * Blobs and uploads in S3-compatible object storage, shared by every API process of a deployment: blobs at
 * `<prefix>blobs/<algorithm>/<hex>`; an upload is a marker `<prefix>uploads/<id>/started` and one object per appended
 * chunk, `<prefix>uploads/<id>/part-<n>` (object storage has no append), joined into the blob at commit. A chunk is
 * staged in a local file while it is counted and hashed, so its length is known before it is sent.
 */
export function createS3BlobStore(settings: ObjectStoreConfig, dataDir: string): BlobStore {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // Checksums only where the API requires them: S3-compatible stores differ in the flexible-checksum headers they know.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;
  const staging = path.join(dataDir, 'registry', 'staging');
  const blobKey = (digest: string) => {
    const algorithm = algorithmOf(digest);
    return `${settings.prefix}blobs/${algorithm}/${digest.slice(algorithm.length + 1)}`;
  };
  const uploadPrefix = (id: string) => `${settings.prefix}uploads/${id}/`;
  const markerKey = (id: string) => `${uploadPrefix(id)}started`;

  async function head(key: string): Promise<{ size: number; modified: Date } | null> {
    try {
      const found = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
      return { size: found.ContentLength ?? 0, modified: found.LastModified ?? new Date(0) };
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  async function* objectsUnder(prefix: string): AsyncGenerator<StoredObject> {
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }));
      for (const o of page.Contents ?? []) if (o.Key) yield { key: o.Key, size: o.Size ?? 0 };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** The upload's chunks in order, or null when the upload does not exist. */
  async function partsOf(id: string): Promise<StoredObject[] | null> {
    const parts: StoredObject[] = [];
    let started = false;
    for await (const o of objectsUnder(uploadPrefix(id))) {
      if (o.key === markerKey(id)) started = true;
      else parts.push(o);
    }
    return started ? parts.sort((a, b) => (a.key < b.key ? -1 : 1)) : null;
  }

  async function bodyOf(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const bytes = range ? `bytes=${range.start}-${range.end}` : undefined;
    const found = await client.send(new GetObjectCommand({ Bucket, Key: key, Range: bytes }));
    return found.Body as Readable;
  }

  /** The objects' bytes one after the other, fetched as they are read. */
  const joined = (keys: string[], range?: { start: number; end: number }) =>
    Readable.from(
      (async function* () {
        for (const key of keys) yield* await bodyOf(key, range);
      })(),
      { objectMode: false },
    );

  async function hashParts(parts: StoredObject[], algorithm: DigestAlgorithm): Promise<string> {
    const hash = createHash(algorithm);
    await pipeline(joined(parts.map((p) => p.key)), hash);
    return `${algorithm}:${hash.digest('hex')}`;
  }

  async function deleteUpload(id: string): Promise<void> {
    const keys: string[] = [];
    for await (const o of objectsUnder(uploadPrefix(id))) keys.push(o.key);
    // One request per key: DeleteObjects needs a Content-MD5 not every S3-compatible store computes alike.
    await Promise.all(keys.map((Key) => client.send(new DeleteObjectCommand({ Bucket, Key }))));
  }

  /** Puts the joined parts at the blob's key: a server-side copy for one part, a streamed join for several. */
  async function place(parts: StoredObject[], key: string): Promise<void> {
    const [only] = parts;
    if (parts.length === 1 && only) {
      await client.send(new CopyObjectCommand({ Bucket, Key: key, CopySource: `${Bucket}/${only.key}` }));
      return;
    }
    const body = joined(parts.map((p) => p.key));
    await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentLength: total(parts) }));
  }

  return {
    async check() {
      // One attempt with its own deadline, so the probe names the bucket rather than timing out in the SDK's retries.
      try {
        await client.send(new HeadBucketCommand({ Bucket }), { abortSignal: AbortSignal.timeout(1500) });
        return null;
      } catch (err) {
        const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        const why = status ? `HTTP ${status}` : err instanceof Error ? err.message : String(err);
        return `the bucket ${Bucket}${settings.endpoint ? ` at ${settings.endpoint}` : ''} (REGISTRY_S3_BUCKET) does not answer: ${why}`;
      }
    },
    async startUpload() {
      const id = randomUUID();
      await client.send(new PutObjectCommand({ Bucket, Key: markerKey(id), Body: '', ContentLength: 0 }));
      return id;
    },
    async appendUpload(id, body, maxBytes) {
      const parts = (await partsOf(id)) ?? [];
      const meter = appendMeter(total(parts), maxBytes);
      await fs.mkdir(staging, { recursive: true });
      const file = path.join(staging, `${id}-${randomUUID()}`);
      try {
        await pipeline(body, meter.transform, createWriteStream(file));
        const written = meter.written();
        if (written > 0) {
          const Key = `${uploadPrefix(id)}part-${String(parts.length).padStart(8, '0')}`;
          await client.send(
            new PutObjectCommand({ Bucket, Key, Body: createReadStream(file), ContentLength: written }),
          );
        }
      } finally {
        await fs.rm(file, { force: true });
      }
      return meter.result();
    },
    async uploadSize(id) {
      const parts = await partsOf(id);
      return parts === null ? null : total(parts);
    },
    hashUpload: async (id, algorithm) => hashParts((await partsOf(id)) ?? [], algorithm),
    async commitUpload(id, digest, hashed) {
      const parts = (await partsOf(id)) ?? [];
      const algorithm = algorithmOf(digest);
      const actual = hashed?.startsWith(`${algorithm}:`) ? hashed : await hashParts(parts, algorithm);
      if (actual === digest) await place(parts, blobKey(digest));
      await deleteUpload(id);
      return actual === digest ? ((await head(blobKey(digest)))?.size ?? null) : null;
    },
    deleteUpload,
    stat: async (digest) => (await head(blobKey(digest)))?.size ?? null,
    storedAt: async (digest) => (await head(blobKey(digest)))?.modified ?? null,
    read: (digest, range) => joined([blobKey(digest)], range),
    remove: async (digest) => {
      await client.send(new DeleteObjectCommand({ Bucket, Key: blobKey(digest) }));
    },
    async *list() {
      for (const algorithm of DIGEST_ALGORITHMS) {
        const prefix = `${settings.prefix}blobs/${algorithm}/`;
        for await (const o of objectsUnder(prefix)) yield `${algorithm}:${o.key.slice(prefix.length)}`;
      }
    },
  };
}
