import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

interface Chunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

/** JavaScript of a chunk and everything it imports statically (what the browser loads with it), as manifest keys. */
function closure(manifest: Record<string, Chunk>, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const dep of manifest[key].imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return seen;
}

/**
 * The sign-in view's first load from the build's stats (dist/web/.vite/manifest.json): the entry chunk, the sign-in
 * route's lazy chunk and their static imports, gzip-compressed as served over the wire.
 */
export function signInFirstLoad(webDir: string) {
  const manifest = JSON.parse(fs.readFileSync(path.join(webDir, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    Chunk
  >;
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  const login = Object.keys(manifest).find((k) => k.endsWith('views/auth/login-view.tsx'));
  if (!entry || !login) throw new Error('build manifest without the entry or the sign-in view: run npm run build');
  const files = [...closure(manifest, [entry, login])].map((k) => manifest[k]!.file);
  const sizes = files.map((file) => {
    const body = fs.readFileSync(path.join(webDir, file));
    return { file, raw: body.length, gzip: gzipSync(body, { level: 9 }).length };
  });
  const all = Object.values(manifest).filter((c) => c.file.endsWith('.js'));
  return {
    files: sizes,
    gzipBytes: sizes.reduce((n, s) => n + s.gzip, 0),
    rawBytes: sizes.reduce((n, s) => n + s.raw, 0),
    chunks: all.length,
    loadedChunks: files.length,
  };
}
