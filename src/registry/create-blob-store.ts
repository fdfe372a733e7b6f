import type { ObjectStoreConfig } from '../config/registry';
import type { BlobStore } from './blob-store';
import { createFilesystemBlobStore } from './filesystem-blob-store';
import { createS3BlobStore } from './s3-blob-store';

/** Object storage when configured, else the filesystem under DATA_DIR (which then must be shared, docs/operations.md). */
export function createBlobStore(dataDir: string, objectStore: ObjectStoreConfig | undefined): BlobStore {
  return objectStore ? createS3BlobStore(objectStore, dataDir) : createFilesystemBlobStore(dataDir);
}
