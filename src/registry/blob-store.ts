import { createHash } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import type { DigestAlgorithm } from './digest';

export { DIGEST } from './digest';

/**
 * Where registry bytes live: blobs content addressed and shared by every repository (the database says which
 * repository links which digest), and uploads in progress. Two implementations: the local filesystem under DATA_DIR
 * (the embedded default) and S3-compatible object storage (REGISTRY_S3_BUCKET), which every API process of a
 * deployment shares. Callers never build paths or keys; bodies are streamed, never held in memory.
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
  /** The digest of an upload's whole content with the algorithm. */
  hashUpload(id: string, algorithm: DigestAlgorithm): Promise<string>;
  /**
   * Hashes the upload with the digest's algorithm (or takes `hashed`, the sha256 digest appendUpload computed, when
   * the algorithm is sha256); when it matches `digest` moves it into
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
  /** Null when the store answers, else why not (the readiness check `bucket` of object storage). */
  check(): Promise<string | null>;
}

export class UploadTooLarge extends Error {}

/**
 * Counts (refusing beyond `maxBytes` with what the upload held `before`) and, for an upload empty before, hashes an
 * appended body on its way to storage: a transform in the pipeline, not a 'data' listener, which would switch off
 * backpressure.
 */
export function appendMeter(before: number, maxBytes: number) {
  let written = 0;
  const hash = before === 0 ? createHash('sha256') : null;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      written += chunk.length;
      hash?.update(chunk);
      done(before + written > maxBytes ? new UploadTooLarge('upload too large') : null, chunk);
    },
  });
  return {
    transform,
    written: () => written,
    result: () => ({ size: before + written, digest: hash ? `sha256:${hash.digest('hex')}` : null }),
  };
}
