import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { deflateObject } from './object-compression';

/** An object as a pack holds it: its type and its body (without the `<type> <size>\0` header). */
export interface PackObject {
  sha: string;
  type: 'blob' | 'tree' | 'commit';
  body: Buffer;
}

const TYPE_CODE = { commit: 1, tree: 2, blob: 3 } as const;

/** An entry's header: the type and the body's size, 4 bits then 7 a byte, the high bit saying another follows. */
function entryHeader(type: PackObject['type'], size: number): Buffer {
  const bytes = [(TYPE_CODE[type] << 4) | (size & 0x0f)];
  for (let rest = Math.floor(size / 16); rest > 0; rest = Math.floor(rest / 128)) {
    bytes[bytes.length - 1]! |= 0x80;
    bytes.push(rest & 0x7f);
  }
  return Buffer.from(bytes);
}

const u32 = (value: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(value);
  return b;
};

/** The pack (version 2, every object whole, none as a delta) and its index (version 2), as git writes them. */
export function packOf(objects: PackObject[]): { pack: Buffer; index: Buffer; name: string } {
  const parts: Buffer[] = [Buffer.from('PACK'), u32(2), u32(objects.length)];
  const entries: { sha: Buffer; crc: number; offset: number }[] = [];
  let offset = 12;
  for (const object of objects) {
    const entry = Buffer.concat([
      entryHeader(object.type, object.body.length),
      deflateObject(object.type, object.body),
    ]);
    entries.push({ sha: Buffer.from(object.sha, 'hex'), crc: crc32(entry), offset });
    parts.push(entry);
    offset += entry.length;
  }
  const packBody = Buffer.concat(parts);
  const checksum = createHash('sha1').update(packBody).digest();
  entries.sort((a, b) => Buffer.compare(a.sha, b.sha));
  if (offset >= 2 ** 31) throw new Error('a pass pack of 2 GiB or more needs the 64-bit offset table');
  const fanout = Buffer.alloc(256 * 4);
  for (let byte = 0, i = 0; byte < 256; byte++) {
    while (i < entries.length && entries[i]!.sha[0]! <= byte) i++;
    fanout.writeUInt32BE(i, byte * 4);
  }
  const indexBody = Buffer.concat([
    Buffer.from([0xff, 0x74, 0x4f, 0x63]),
    u32(2),
    fanout,
    ...entries.map((e) => e.sha),
    ...entries.map((e) => u32(e.crc >>> 0)),
    ...entries.map((e) => u32(e.offset)),
    checksum,
  ]);
  const index = Buffer.concat([indexBody, createHash('sha1').update(indexBody).digest()]);
  return { pack: Buffer.concat([packBody, checksum]), index, name: checksum.toString('hex') };
}

/**
 * Writes `objects` as one pack and its index under `objects/pack`, the pack first and the index last (git knows a pack
 * by its index, so a reader never meets a pack without its index), each through a temporary file renamed into place.
 * Not fsynced, as the loose objects it replaces were not (object-writer.ts); the branch that makes them reachable is.
 * Synchronous, as loose objects are written (object-writer.ts): a pass's pack is small, and the thread pool's hops
 * cost more than the writes (the async version was 6.6 % of a profile of 20 HTTP writers, this one ~2 %).
 */
export function writePack(repo: string, objects: PackObject[]): void {
  if (objects.length === 0) return;
  const { pack, index, name } = packOf(objects);
  const dir = path.join(repo, 'objects', 'pack');
  fs.mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  try {
    for (const [suffix, bytes] of [
      ['pack', pack],
      ['idx', index],
    ] as const) {
      const temp = path.join(dir, `tmp_pass_${randomBytes(6).toString('hex')}.${suffix}`);
      written.push(temp);
      fs.writeFileSync(temp, bytes, { mode: 0o444 });
      fs.renameSync(temp, path.join(dir, `pack-${name}.${suffix}`));
    }
  } catch (err) {
    // A failed write (a full disk) leaves no partial temporary file on the volume (issue 43), nor a pack without its
    // index (no reader would find its objects, and gc would not remove it).
    if (written.length === 2) written.push(path.join(dir, `pack-${name}.pack`));
    for (const file of written) fs.rmSync(file, { force: true });
    throw err;
  }
}
