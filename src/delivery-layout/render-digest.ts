import { createHash } from 'node:crypto';

/** Digest of a rendered tree: a write request carries the digest of what was validated, the commit path compares. */
export function renderDigest(files: Map<string, string>): string {
  const hash = createHash('sha256');
  for (const file of [...files.keys()].sort()) hash.update(`${file}\0${files.get(file) ?? ''}\0`);
  return hash.digest('hex');
}
