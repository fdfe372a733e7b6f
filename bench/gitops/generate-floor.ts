import fs from 'node:fs/promises';
import path from 'node:path';
import { git, readBlobs } from '../../src/git/git-plumbing';
import { copyOf } from '../commits/floors';
import { elapsedMs } from '../validate/stats';

/**
 * The physical floor of a generate (issue 46): one `git fast-import` writing the same changes as the generated commit
 * (every file it added, changed or removed, contents inline) as one commit on top of its parent, on a fresh copy of
 * the repository as it was before. Milliseconds of the fast-import alone, the median of `rounds` copies.
 */
export async function fastImportOfCommit(repo: string, commit: string, work: string, rounds = 3): Promise<number> {
  // The repository's first commit (a new project's generate) has no parent: the floor then starts an empty one.
  const parents = (await git(repo, ['rev-list', '--parents', '-n', '1', commit])).stdout.toString().trim().split(' ');
  const parent = parents[1] ?? null;
  const against = parent === null ? ['--root', commit] : [parent, commit];
  const changed = (await git(repo, ['diff-tree', '-r', '-z', '--no-commit-id', '--no-renames', ...against])).stdout
    .toString()
    .split('\0');
  // -z pairs each ":<modes> <shas> <status>" with its path.
  const lines: string[] = [];
  const blobs: { path: string; sha: string; mode: string }[] = [];
  for (let i = 0; i + 1 < changed.length; i += 2) {
    const [, newMode, , newSha, status] = changed[i]!.slice(1).split(' ');
    const file = changed[i + 1]!;
    if (status === 'D') lines.push(`D ${file}\n`);
    else blobs.push({ path: file, sha: newSha!, mode: newMode! });
  }
  const contents = await readBlobs(
    repo,
    blobs.map((b) => b.sha),
  );
  const stream = [
    `commit refs/heads/main\ncommitter F <f@f> 1700000000 +0000\ndata 5\nfloor\n`,
    parent === null ? '' : `from ${parent}\n`,
    ...lines,
    ...blobs.flatMap((b) => {
      const content = contents.get(b.sha)!;
      return [`M ${b.mode} inline ${b.path}\ndata ${content.length}\n`, content, '\n'];
    }),
  ];
  const input = Buffer.concat(stream.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const copy = path.join(work, `generate-floor-${round}.git`);
    if (parent === null) await git(copy, ['init', '--quiet', '--bare']);
    else await git(await copyOf(repo, copy), ['update-ref', 'refs/heads/main', parent]);
    const start = process.hrtime.bigint();
    await git(copy, ['fast-import', '--quiet', '--force', '--date-format=raw'], { input });
    times.push(elapsedMs(start));
    await fs.rm(copy, { recursive: true, force: true });
  }
  return [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}
