import zlib from 'node:zlib';

export interface TarEntry {
  path: string;
  content: Buffer;
}

const BLOCK = 512;

function cString(buf: Buffer, start: number, length: number): string {
  const slice = buf.subarray(start, start + length);
  const nul = slice.indexOf(0);
  return slice.subarray(0, nul === -1 ? slice.length : nul).toString('utf8');
}

/** PAX extended headers carry `<len> key=value\n` records; only `path` matters for our archives. */
function paxPath(data: Buffer): string | undefined {
  const match = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'));
  return match?.[1];
}

/**
 * Regular files of a .tar.gz (ustar, with PAX or GNU long names). Node has no tar reader and the build
 * script must run with what package.json already holds, hence this small one.
 */
export function readTarGz(archive: Buffer): TarEntry[] {
  const tar = zlib.gunzipSync(archive);
  const entries: TarEntry[] = [];
  let offset = 0;
  let longName: string | undefined;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) break;
    const size = parseInt(cString(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const prefix = cString(header, 345, 155);
    const name = prefix ? `${prefix}/${cString(header, 0, 100)}` : cString(header, 0, 100);
    const dataStart = offset + BLOCK;
    const data = tar.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      longName = paxPath(data);
      continue;
    }
    if (type === 'L') {
      longName = cString(data, 0, data.length);
      continue;
    }
    if (type === '0' || type === '\0') entries.push({ path: (longName ?? name).replace(/^\.\//, ''), content: data });
    longName = undefined;
  }
  return entries;
}
