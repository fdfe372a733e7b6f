import { readBranch } from './commit-writer';
import { gitText } from './git-plumbing';

/** Every commit reachable from a repository's branch, newest first (none for a repository without one). */
export async function branchHistory(repo: string): Promise<string[]> {
  const tip = await readBranch(repo);
  if (!tip) return [];
  return (await gitText(repo, ['rev-list', tip])).split('\n').filter(Boolean);
}
