import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/knex';
import type { Logger } from '../logging/logger';
import type { RepositoryGuard } from '../git/repository-store';
import { allProjectRefs } from '../projects/project-repository';
import { installationId, recordVolumeClaim, volumeClaimed } from './installation-repository';
import { readMarker, REPOSITORY_MARKER, ROOT_MARKER, writeMarker, type VolumeMarker } from './volume-marker';
import { takeAdvisoryLock } from '../db/advisory-lock';

/** The Git volume (or a repository folder on it) is not this installation's: 503, never a read or a write there. */
export class RepositoryVolumeRefused extends Error {
  override readonly name = 'RepositoryVolumeRefused';
}

/**
 * Proves that GIT_REPOSITORIES_DIR and each repository folder belong to this installation before a process reads or
 * writes them (issue 43, H2; "Identity, never location"). The root carries the installation id, each repository also
 * its organization and project ids. A root without a marker is claimed only while no volume was ever claimed (the
 * database says) and the folder holds the repositories the database names (or the database names none): the one-time
 * adoption of a volume from before markers. An empty or foreign folder is refused, and the process is not ready.
 */
export interface VolumeGuard extends RepositoryGuard {
  /** Null when the root is this installation's (claiming it when it may), else why not (the readiness check). */
  check(): Promise<string | null>;
}

export function createVolumeGuard(deps: { root: string; db: Db; log?: Logger }): VolumeGuard {
  const { root, db } = deps;
  let id: string | null = null;
  let proven = false;
  const verified = new Set<string>();
  const ownId = async () => (id ??= await installationId(db));

  /** Marks the root (and the repositories the database names that it holds), when it may. */
  async function claim(): Promise<string | null> {
    return db.transaction(async (trx) => {
      await takeAdvisoryLock(trx, 'git-volume:claim');
      const installation = await ownId();
      if ((await readMarker(root, ROOT_MARKER))?.installationId === installation) return null;
      if (await volumeClaimed(trx)) {
        return `GIT_REPOSITORIES_DIR (${root}) has no installation marker, and another folder was marked as this installation's volume: mount the shared volume`;
      }
      const named = await allProjectRefs(trx);
      const present = [];
      for (const ref of named) {
        const dir = path.join(root, ref.organizationId, `${ref.projectId}.git`);
        if (
          await fs.stat(path.join(dir, 'HEAD')).then(
            () => true,
            () => false,
          )
        )
          present.push({ ...ref, dir });
      }
      if (named.length > 0 && present.length === 0) {
        return `GIT_REPOSITORIES_DIR (${root}) has no installation marker and none of the ${named.length} repositories the database names: not this installation's volume (empty or another folder)`;
      }
      await fs.mkdir(root, { recursive: true });
      for (const { dir, organizationId, projectId } of present) {
        await writeMarker(dir, REPOSITORY_MARKER, { installationId: installation, organizationId, projectId });
      }
      await writeMarker(root, ROOT_MARKER, { installationId: installation });
      await recordVolumeClaim(trx);
      deps.log?.info('git volume marked as this installation', { root, adoptedRepositories: present.length });
      return null;
    });
  }

  const guard: VolumeGuard = {
    async check() {
      const installation = await ownId();
      const marker = await readMarker(root, ROOT_MARKER);
      const reason =
        marker === null
          ? await claim()
          : marker.installationId === installation
            ? null
            : `GIT_REPOSITORIES_DIR (${root}) belongs to installation ${marker.installationId}, not to this one (${installation})`;
      proven = reason === null;
      return reason;
    },
    async requireVolume() {
      if (proven) return;
      const reason = await guard.check();
      if (reason !== null) throw new RepositoryVolumeRefused(reason);
    },
    async verifyRepository(organizationId, projectId, dir) {
      const key = `${organizationId}/${projectId}`;
      if (verified.has(key)) return;
      await guard.requireVolume();
      const marker = await readMarker(dir, REPOSITORY_MARKER);
      const own: VolumeMarker = { installationId: await ownId(), organizationId, projectId };
      // On a proven volume, a repository without a marker was made before markers (or by an older process mid-rollout).
      if (marker === null) await writeMarker(dir, REPOSITORY_MARKER, own);
      else if (!sameOwner(marker, own)) {
        throw new RepositoryVolumeRefused(
          `the repository folder ${dir} belongs to project ${marker.projectId ?? '?'} of installation ${marker.installationId}, not to project ${projectId} of this one`,
        );
      }
      verified.add(key);
    },
    async markRepository(organizationId, projectId, dir) {
      await writeMarker(dir, REPOSITORY_MARKER, { installationId: await ownId(), organizationId, projectId });
      verified.add(`${organizationId}/${projectId}`);
    },
  };
  return guard;
}

function sameOwner(a: VolumeMarker, b: VolumeMarker): boolean {
  return a.installationId === b.installationId && a.organizationId === b.organizationId && a.projectId === b.projectId;
}
