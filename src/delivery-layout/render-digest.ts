import { createHash, type Hash } from 'node:crypto';

/** Digest of a rendered tree: a write request carries the digest of what was validated, the commit path compares. */
export function renderDigest(files: ReadonlyMap<string, string>): string {
  const hash = createHash('sha256');
  for (const file of [...files.keys()].sort()) hash.update(`${file}\0${files.get(file) ?? ''}\0`);
  return hash.digest('hex');
}

/** The Application directory (`tenants/<tenant>/<environment>/<service>`) a path lies under, or null. */
export function applicationDirectoryOf(path: string): string | null {
  const parts = path.split('/', 5);
  return parts[0] === 'tenants' && parts.length === 5 ? parts.slice(0, 4).join('/') : null;
}

/** Each Application directory's renderDigest in a tree, and how many files it holds. */
export type DirectoryDigests = ReadonlyMap<string, { digest: string; files: number }>;

/**
 * A whole render's digest and its Application directories' (each renderDigest of the directory's files, what the
 * deployed state records), in one pass over the text (issue 46: a generate hashed its 5,000 files twice, once for the
 * render and once a directory at a time for the commit's record). The whole digest is renderDigest's form over the
 * files outside Application directories, each directory standing as one entry of its digest.
 */
export function treeDigests(files: ReadonlyMap<string, string>): { digest: string; directories: DirectoryDigests } {
  const sorted = [...files.keys()].sort();
  const dirs = sorted.map(applicationDirectoryOf);
  const hashes = new Map<string, { hash: Hash; files: number }>();
  sorted.forEach((file, i) => {
    const dir = dirs[i];
    if (dir === null || dir === undefined) return;
    let own = hashes.get(dir);
    if (!own) hashes.set(dir, (own = { hash: createHash('sha256'), files: 0 }));
    own.hash.update(`${file}\0${files.get(file) ?? ''}\0`);
    own.files += 1;
  });
  const directories = new Map(
    [...hashes].map(([dir, own]) => [dir, { digest: own.hash.digest('hex'), files: own.files }]),
  );
  const whole = createHash('sha256');
  const entered = new Set<string>();
  sorted.forEach((file, i) => {
    const dir = dirs[i];
    if (dir === null || dir === undefined) whole.update(`${file}\0${files.get(file) ?? ''}\0`);
    else if (!entered.has(dir)) {
      entered.add(dir);
      whole.update(`${dir}/\0${directories.get(dir)?.digest ?? ''}\0`);
    }
  });
  return { digest: whole.digest('hex'), directories };
}
