import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';
import { Unprocessable } from '../errors';

/** What one archive read may cost: unpacked bytes in all, bytes of one file, entries (directories included). */
export interface ArchiveLimits {
  maxTotalBytes: number;
  maxEntryBytes: number;
  maxEntries: number;
}

/** Budgets of a Helm chart tarball (charts are small; `helm package` writes a few dozen files). */
export const CHART_ARCHIVE_LIMITS: ArchiveLimits = {
  maxTotalBytes: 20 * 1024 * 1024,
  maxEntryBytes: 4 * 1024 * 1024,
  maxEntries: 2_000,
};

class ArchiveRefused extends Unprocessable {}

/** Counts unpacked bytes and stops the pipeline past the budget (a gzip bomb ends here, not in memory). */
function meter(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      seen += chunk.length;
      if (seen > maxBytes) done(new ArchiveRefused(`the archive unpacks to more than ${maxBytes} bytes`));
      else done(null, chunk);
    },
  });
}

/**
 * The regular files of a gzipped tar archive, read with tar-stream (ustar, PAX and GNU long names) through a streaming
 * gunzip, within `limits`. Any malformed header, bad size field, truncated archive or exceeded budget answers 422
 * (`Unprocessable`) naming the problem; the read always ends, since every step consumes input.
 */
export async function filesOfTarGz(archive: Buffer, limits: ArchiveLimits): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const tar = extract();
  let entries = 0;
  const collect = (async () => {
    for await (const entry of tar) {
      entries += 1;
      if (entries > limits.maxEntries)
        throw new ArchiveRefused(`the archive holds more than ${limits.maxEntries} entries`);
      const size = entry.header.size ?? 0;
      if (!Number.isSafeInteger(size) || size < 0 || size > limits.maxEntryBytes) {
        throw new ArchiveRefused(`archive entry ${entry.header.name} is larger than ${limits.maxEntryBytes} bytes`);
      }
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      if (entry.header.type === 'file' || entry.header.type === 'contiguous-file') {
        files.set(entry.header.name.replace(/^\.\//, ''), Buffer.concat(chunks));
      }
    }
  })();
  try {
    await Promise.all([pipeline(Readable.from([archive]), createGunzip(), meter(limits.maxTotalBytes), tar), collect]);
  } catch (err) {
    tar.destroy();
    if (err instanceof ArchiveRefused) throw err;
    throw new ArchiveRefused(`not a readable .tar.gz archive (${err instanceof Error ? err.message : String(err)})`);
  }
  return files;
}
