/**
 * One ustar entry: a 512-byte header (with its checksum) and the content padded to 512 bytes. `size` overrides the
 * octal size field as written, for hostile headers.
 */
export function tarEntry(name: string, content: string, opts: { type?: string; size?: string } = {}): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0);
  header.write('0000644', 100);
  header.write((opts.size ?? content.length.toString(8).padStart(11, '0')).slice(0, 11), 124);
  header.write('00000000000', 136);
  header.write(opts.type ?? '0', 156);
  header.write('ustar\u000000', 257);
  header.fill(' ', 148, 156);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148);
  const body = Buffer.alloc(Math.ceil(Buffer.byteLength(content) / 512) * 512);
  body.write(content);
  return Buffer.concat([header, body]);
}

/** A gzipped chart archive holding `files` (paths relative to the archive root) and the end-of-archive blocks. */
export function tarOf(files: Record<string, string>): Buffer {
  return Buffer.concat([...Object.entries(files).map(([name, text]) => tarEntry(name, text)), Buffer.alloc(1024)]);
}
