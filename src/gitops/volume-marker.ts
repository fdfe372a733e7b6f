import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** What a marker says: whose folder it is (the installation, and for a repository its organization and project). */
export interface VolumeMarker {
  installationId: string;
  organizationId?: string;
  projectId?: string;
}

/** The marker of GIT_REPOSITORIES_DIR itself (beside the organization folders, which hold no files of their own). */
export const ROOT_MARKER = '.delivery-platform-volume.json';
/** The marker inside a bare repository (git ignores files it does not know in its folder). */
export const REPOSITORY_MARKER = 'delivery-platform-repository.json';

/** The marker in `dir`, null when there is none; an unreadable one reads as a foreign one. */
export async function readMarker(dir: string, name: string): Promise<VolumeMarker | null> {
  const text = await fs.readFile(path.join(dir, name), 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as Partial<VolumeMarker>;
    return typeof parsed.installationId === 'string' ? (parsed as VolumeMarker) : { installationId: '(unreadable)' };
  } catch {
    return { installationId: '(unreadable)' };
  }
}

/** Writes the marker whole or not at all (a temporary file renamed over it). */
export async function writeMarker(dir: string, name: string, marker: VolumeMarker): Promise<void> {
  const temp = path.join(dir, `.${name}.${randomUUID()}.tmp`);
  await fs.writeFile(temp, `${JSON.stringify(marker)}\n`, { flag: 'wx' });
  await fs.rename(temp, path.join(dir, name));
}
