import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { scratchDir } from '../../helpers/scratch-dir';

export const sha = (data: Buffer | string) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

/**
 * A one-layer OCI image layout on disk (tag `v1`), as `skopeo copy oci:<dir>:v1` reads it; `created` is the image
 * config's creation time (none by default).
 */
export function makeImageLayout(
  files: Record<string, string>,
  opts: { created?: string } = {},
): { dir: string; manifestDigest: string } {
  const dir = scratchDir('oci-layout-');
  const src = scratchDir('oci-src-');
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(src, name), text);
  const blobs = path.join(dir, 'blobs', 'sha256');
  fs.mkdirSync(blobs, { recursive: true });
  const put = (data: Buffer) => {
    const digest = sha(data);
    fs.writeFileSync(path.join(blobs, digest.slice(7)), data);
    return { digest, size: data.length };
  };
  const layer = execFileSync('tar', ['-cz', '-C', src, '.']);
  const diffId = sha(execFileSync('tar', ['-c', '-C', src, '.']));
  const config = Buffer.from(
    JSON.stringify({
      ...(opts.created !== undefined ? { created: opts.created } : {}),
      architecture: 'amd64',
      os: 'linux',
      rootfs: { type: 'layers', diff_ids: [diffId] },
      config: {},
    }),
  );
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...put(config) },
      layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', ...put(layer) }],
    }),
  );
  const m = put(manifest);
  fs.writeFileSync(path.join(dir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  fs.writeFileSync(
    path.join(dir, 'index.json'),
    JSON.stringify({
      schemaVersion: 2,
      manifests: [
        {
          mediaType: 'application/vnd.oci.image.manifest.v1+json',
          ...m,
          annotations: { 'org.opencontainers.image.ref.name': 'v1' },
        },
      ],
    }),
  );
  return { dir, manifestDigest: m.digest };
}
