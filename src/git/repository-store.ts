import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gitBinary } from './git-binary';

const run = promisify(execFile);

/** The branch every hosted repository delivers from. */
export const MAIN_BRANCH = 'main';

/**
 * What the store asks before it touches a repository folder: that the volume, and the repository on it, are this
 * installation's (src/gitops/volume-guard.ts proves it with markers; each call throws when they are not).
 */
export interface RepositoryGuard {
  /** Throws unless the root is this installation's. */
  requireVolume(): Promise<void>;
  /** Checks a repository's marker once per process (writing it for a repository from before markers). */
  verifyRepository(organizationId: string, projectId: string, dir: string): Promise<void>;
  /** Marks a repository just created. */
  markRepository(organizationId: string, projectId: string, dir: string): Promise<void>;
}

/**
 * The one module that knows where hosted repositories live: `<root>/<organization id>/<project id>.git` under the
 * configured GIT_REPOSITORIES_DIR (default `DATA_DIR/git`, the volume every process shares), one directory per
 * organization and one bare repository per project. Ids, not slugs, so nothing moves on a rename. Callers ask it for
 * paths and never build them.
 */
export interface RepositoryStore {
  /** Directory holding one organization's repositories (`GIT_PROJECT_ROOT` of the Git HTTP backend). */
  organizationRoot(organizationId: string): string;
  /** Path of a project's bare repository. */
  pathOf(organizationId: string, projectId: string): string;
  /** Name of the repository inside its organization root (`<project id>.git`). */
  nameOf(projectId: string): string;
  /** Creates the bare repository when missing (idempotent). */
  ensure(organizationId: string, projectId: string): Promise<string>;
  exists(organizationId: string, projectId: string): Promise<boolean>;
  remove(organizationId: string, projectId: string): Promise<void>;
  /** Every hosted repository on disk (operator checks and maintenance sweeps). */
  list(): Promise<HostedRepository[]>;
}

export interface HostedRepository {
  organizationId: string;
  projectId: string;
  path: string;
}

/**
 * The store of the repositories under `root` (GIT_REPOSITORIES_DIR). With a guard (every API and worker process), a
 * repository is created only on a volume proven this installation's, and `exists` (what every reader and the commit
 * path ask first) checks the repository's marker: a foreign folder throws RepositoryVolumeRefused (503).
 */
export function createRepositoryStore(root: string, guard?: RepositoryGuard): RepositoryStore {
  const store: RepositoryStore = {
    organizationRoot: (organizationId) => path.join(root, organizationId),
    nameOf: (projectId) => `${projectId}.git`,
    pathOf: (organizationId, projectId) => path.join(root, organizationId, `${projectId}.git`),
    async ensure(organizationId, projectId) {
      const dir = store.pathOf(organizationId, projectId);
      await guard?.requireVolume();
      await fs.mkdir(path.dirname(dir), { recursive: true });
      await run(gitBinary(), ['init', '--quiet', '--bare', `--initial-branch=${MAIN_BRANCH}`, dir]);
      await guard?.markRepository(organizationId, projectId, dir);
      return dir;
    },
    async exists(organizationId, projectId) {
      const dir = store.pathOf(organizationId, projectId);
      // On a folder that is not this installation's, "missing" would be a lie too: refuse before looking.
      await guard?.requireVolume();
      const found = await fs
        .stat(path.join(dir, 'HEAD'))
        .then(() => true)
        .catch(() => false);
      if (found) await guard?.verifyRepository(organizationId, projectId, dir);
      return found;
    },
    async remove(organizationId, projectId) {
      await fs.rm(store.pathOf(organizationId, projectId), { recursive: true, force: true });
    },
    async list() {
      const found: HostedRepository[] = [];
      for (const organizationId of await fs.readdir(root).catch(() => [])) {
        for (const name of await fs.readdir(path.join(root, organizationId)).catch(() => [])) {
          if (!name.endsWith('.git')) continue;
          const projectId = name.slice(0, -'.git'.length);
          found.push({ organizationId, projectId, path: store.pathOf(organizationId, projectId) });
        }
      }
      return found;
    },
  };
  return store;
}
