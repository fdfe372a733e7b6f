import { gunzipSync } from 'node:zlib';

const BLOCK = 512;

function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? length : end).toString('utf8');
}

/**
 * The regular files of a gzipped tar archive (ustar with its prefix field; GNU and PAX extension records are
 * skipped), at most `maxBytes` unpacked. Enough for Helm chart tarballs, which are small and built by Go's archive/tar.
 */
export function filesOfTarGz(archive: Buffer, maxBytes: number): Map<string, Buffer> {
  const tar = gunzipSync(archive, { maxOutputLength: maxBytes });
  const files = new Map<string, Buffer>();
  for (let at = 0; at + BLOCK <= tar.length;) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) break;
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const prefix = field(header, 345, 155);
    const name = (prefix ? `${prefix}/` : '') + field(header, 0, 100);
    if (type === '0' || type === '\0')
      files.set(name.replace(/^\.\//, ''), tar.subarray(at + BLOCK, at + BLOCK + size));
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}
