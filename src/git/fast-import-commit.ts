import { gitText } from './git-plumbing';

/** The branch fast-import builds on in memory; reset before the stream ends, so no ref is ever written. */
const SCRATCH_REF = 'refs/platform/build';

/** A path as a C-style quoted string (fast-import takes any byte in it then, spaces and quotes included). */
function quoted(file: string): string {
  return `"${file.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

function data(body: Buffer): Buffer[] {
  return [Buffer.from(`data ${body.length}\n`), body, Buffer.from('\n')];
}

/** The root tree id of an `ls <commit> ""` answer line (`040000 tree <id>\t`), or null for an empty tree. */
function rootTree(line: string | undefined): string | null {
  const match = /^040000 tree ([0-9a-f]{40})\t/.exec(line ?? '');
  return match?.[1] ?? null;
}

/**
 * A large commit in one `git fast-import` process, into a pack of its own: fast-import starts from the parent's tree
 * and rewrites just the directories on the changed paths, then reports the commit and both root trees, so a change
 * that leaves the tree as it is gives null. `author` and `committer` are `Name <email> <seconds> <zone>`.
 */
export async function fastImportCommit(
  repo: string,
  parent: string | null,
  changes: { writes: Map<string, string>; deletes: string[] },
  commit: { author: string; committer: string; message: string },
): Promise<string | null> {
  const chunks: Buffer[] = [
    Buffer.from(`commit ${SCRATCH_REF}\nmark :1\nauthor ${commit.author}\ncommitter ${commit.committer}\n`),
    ...data(Buffer.from(commit.message, 'utf8')),
  ];
  if (parent) chunks.push(Buffer.from(`from ${parent}\n`));
  for (const file of changes.deletes) chunks.push(Buffer.from(`D ${quoted(file)}\n`));
  for (const [file, content] of changes.writes) {
    chunks.push(Buffer.from(`M 100644 inline ${quoted(file)}\n`), ...data(Buffer.from(content, 'utf8')));
  }
  chunks.push(Buffer.from(`\nget-mark :1\nls :1 ""\n`));
  if (parent) chunks.push(Buffer.from(`ls ${parent} ""\n`));
  chunks.push(Buffer.from(`reset ${SCRATCH_REF}\n\ndone\n`));
  const out = await gitText(repo, ['fast-import', '--quiet', '--done', '--date-format=raw'], {
    input: Buffer.concat(chunks),
  });
  const [made, tree, parentTree] = out.split('\n');
  if (!made || !/^[0-9a-f]{40}$/.test(made)) throw new Error(`git fast-import gave no commit: ${out.slice(0, 200)}`);
  if (rootTree(tree) === (parent ? rootTree(parentTree) : null)) return null;
  return made;
}
