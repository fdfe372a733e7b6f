import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface WebAsset {
  body: Buffer;
  type: string;
  etag: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/**
 * The built web app (`npm run build` writes dist/web) read once into memory: requests are answered from this map by
 * exact path, so no request path ever reaches the file system. Null when the app was not built.
 */
export function loadWebAssets(dir: string): Map<string, WebAsset> | null {
  if (!fs.existsSync(path.join(dir, 'index.html'))) return null;
  const assets = new Map<string, WebAsset>();
  const walk = (sub: string) => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = path.posix.join(sub, entry.name);
      if (entry.isDirectory()) walk(rel);
      else {
        const type = TYPES[path.extname(entry.name)];
        if (!type) continue;
        const body = fs.readFileSync(path.join(dir, rel));
        const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
        assets.set(`/${rel}`, { body, type, etag });
      }
    }
  };
  walk('');
  return assets;
}
