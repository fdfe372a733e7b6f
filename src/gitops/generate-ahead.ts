import { PACKED_COMMIT_FILES, type FileChanges } from '../git/commit-writer';
import { fastImportTree, type TreeAhead } from '../git/fast-import-commit';
import { EMPTY_TREE, hashedObjects, writeTree } from '../git/object-writer';

/**
 * A generate's tree built while it validates (issue 46): the service starts a `git fast-import` of the changes it is
 * about to validate, on the other core, and hashes the same tree here (ids only, nothing written: `hashedObjects`), so
 * the commit path's generate operation can make the commit on that tree, and record it, while the import still writes
 * it; the branch moves once the import has ended with the same tree (`TreeAhead.written`, which the commit's object
 * store waits for). Keyed by repository, parent and render digest, which decide the changes; kept in this process only
 * until the generate that started it answers (a commit handed to a workflow builds its own). A generate the
 * validation blocks leaves its objects unreferenced in one pack, for the repository's maintenance; an import that
 * fails, or builds another tree, fails the commit's pass (the write then goes to the commit workflow).
 */
const ahead = new Map<string, Promise<TreeAhead | null>>();

const keyOf = (repo: string, parent: string | null, digest: string) => `${repo}\0${parent ?? ''}\0${digest}`;

/** The hashed tree, written by `imported`: `written` fails unless the import ends with this very tree. */
async function hashedAhead(
  repo: string,
  parent: string | null,
  changes: FileChanges,
  imported: Promise<TreeAhead>,
): Promise<TreeAhead> {
  // A path both deleted and written is written, here as in the import (writeTree applies deletes first).
  const hashed = await writeTree(hashedObjects(repo), parent, changes.writes, changes.deletes).catch((err: unknown) => {
    imported.catch(() => undefined);
    throw err;
  });
  // As fast-import reports them (fast-import-commit.ts TreeAhead): null for an empty tree.
  const orNull = (id: string | null) => (id === EMPTY_TREE ? null : id);
  const tree = orNull(hashed.tree);
  const written = imported.then((made) => {
    if (made.tree !== tree) throw new Error(`git fast-import built tree ${made.tree}, not the hashed ${tree}`);
  });
  // Awaited by the commit's flush; a generate that never commits (blocked) leaves it unawaited.
  written.catch(() => undefined);
  return { tree, parentTree: orNull(hashed.parentTree), written };
}

/**
 * Starts building the tree when the changes are large enough to be packed; the returned function forgets it. The
 * import starts before the render's `digest` (the key) is asked, so the other core begins the pack that much sooner.
 */
export function buildTreeAhead(
  repo: string,
  parent: string | null,
  digest: () => string,
  changes: FileChanges,
): () => void {
  if (changes.writes.size + changes.deletes.length < PACKED_COMMIT_FILES) return () => undefined;
  const imported = fastImportTree(repo, parent, changes);
  const key = keyOf(repo, parent, digest());
  const tree = hashedAhead(repo, parent, changes, imported).catch(() => null);
  ahead.set(key, tree);
  return () => {
    if (ahead.get(key) === tree) ahead.delete(key);
  };
}

/** The tree built ahead for this render on this parent, if one is. */
export function treeAhead(repo: string, parent: string | null, digest: string): Promise<TreeAhead | null> | undefined {
  return ahead.get(keyOf(repo, parent, digest));
}
