import fs from 'node:fs';
import { git } from '../git/git-plumbing';
import type { RepositoryStore } from '../git/repository-store';

/** Which repositories a maintenance run covers: one (after a large or a periodic commit), or all (the schedule). */
export interface MaintenanceTarget {
  organizationId: string;
  projectId: string;
}

/**
 * Merges the small packs commit passes leave (one a pass), once they crowd the repository, into a geometric
 * progression (`git repack --geometric=2`: only as many of the smallest as keep each pack at least twice the size of
 * the next smaller one, so the cost follows the small packs, not the repository), then packs the repository when git
 * thinks it needs it (`git gc --auto`: loose objects past gc.auto, packs past gc.autoPackLimit), in the foreground so
 * the activity's end is the work's end. Safe beside writers: a pack written meanwhile is left as it is, and gc keeps
 * recent unreferenced objects (a commit being built) for gc.pruneExpire.
 */
export async function maintainRepository(path: string): Promise<void> {
  if (packsCrowded(path)) await git(path, ['repack', '--geometric=2', '-d', '-q']);
  await git(path, ['-c', 'gc.autoDetach=false', 'gc', '--auto', '--quiet']);
}

/**
 * More packs than this and a pass asks for its repository's maintenance: every object lookup (the object reader,
 * fast-import's duplicate check, a clone) walks every pack.
 */
const PACKS_BEFORE_MAINTENANCE = 24;

/** Whether the repository holds more packs than PACKS_BEFORE_MAINTENANCE (git knows a pack by its index). */
export function packsCrowded(path: string): boolean {
  const names = fs.readdirSync(`${path}/objects/pack`, { withFileTypes: true });
  return names.filter((entry) => entry.isFile() && entry.name.endsWith('.idx')).length > PACKS_BEFORE_MAINTENANCE;
}

/** Maintains the target, or every hosted repository; `beat` is called between repositories. Returns how many ran. */
export async function maintainRepositories(
  repositories: RepositoryStore,
  target: MaintenanceTarget | null,
  beat: () => void = () => undefined,
): Promise<number> {
  const all = target
    ? [{ ...target, path: repositories.pathOf(target.organizationId, target.projectId) }]
    : await repositories.list();
  let count = 0;
  for (const repository of all) {
    if (!(await repositories.exists(repository.organizationId, repository.projectId))) continue;
    await maintainRepository(repository.path);
    count += 1;
    beat();
  }
  return count;
}

/** A commit this large leaves a pack worth consolidating soon. */
const LARGE_COMMIT_FILES = 100;
/** One commit record in this many asks for maintenance: each repository's turn comes every ~this many of its commits. */
const COMMITS_PER_MAINTENANCE = 500n;

/** Whether a commit asks for its repository's maintenance (run in its own workflow, after the write answered). */
export function wantsMaintenance(changedFiles: number, recordSeq: bigint): boolean {
  return changedFiles >= LARGE_COMMIT_FILES || recordSeq % COMMITS_PER_MAINTENANCE === 0n;
}
