import { PACKED_COMMIT_FILES, type FileChanges } from '../git/commit-writer';
import { fastImportTree, type TreeAhead } from '../git/fast-import-commit';

/**
 * A generate's tree built while it validates (issue 46): the service starts a `git fast-import` of the changes it is
 * about to validate, on the other core, and the commit path's generate operation takes the tree when it commits the
 * same render on the same parent. Keyed by repository, parent and render digest, which decide the changes; kept in
 * this process only until the generate that started it answers (a commit handed to a workflow builds its own).
 * A generate the validation blocks leaves its objects unreferenced in one pack, for the repository's maintenance.
 */
const ahead = new Map<string, Promise<TreeAhead | null>>();

const keyOf = (repo: string, parent: string | null, digest: string) => `${repo}\0${parent ?? ''}\0${digest}`;

/** Starts building the tree when the changes are large enough to be packed; the returned function forgets it. */
export function buildTreeAhead(repo: string, parent: string | null, digest: string, changes: FileChanges): () => void {
  if (changes.writes.size + changes.deletes.length < PACKED_COMMIT_FILES) return () => undefined;
  const key = keyOf(repo, parent, digest);
  const tree = fastImportTree(repo, parent, changes).catch(() => null);
  ahead.set(key, tree);
  return () => {
    if (ahead.get(key) === tree) ahead.delete(key);
  };
}

/** The tree built ahead for this render on this parent, if one is. */
export function treeAhead(repo: string, parent: string | null, digest: string): Promise<TreeAhead | null> | undefined {
  return ahead.get(keyOf(repo, parent, digest));
}
