import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { gitBinary, gitEnv } from '../../src/git/git-binary';
import { git } from '../../src/git/git-plumbing';
import { elapsedMs } from '../validate/stats';

const run = promisify(execFile);
/** The floors' git processes run as the platform's do (its malloc tuning included: src/git/git-binary.ts). */
const env = { ...process.env, GLIBC_TUNABLES: gitEnv().GLIBC_TUNABLES };

/**
 * The physical floors of a commit on this disk, measured on a copy of the benched repository: what git itself needs,
 * without the platform.
 */

/** A fresh bare copy of `repo` (hard links: same disk, same objects). */
export async function copyOf(repo: string, dir: string): Promise<string> {
  await run(gitBinary(), ['clone', '--quiet', '--bare', '--local', repo, dir], { env });
  return dir;
}

/**
 * The 5-process plumbing loop in shell (hash-object, update-index on a persistent index, write-tree, commit-tree,
 * update-ref), one one-file commit after another: commits per second and the per-commit latencies.
 */
export async function plumbingLoop(repo: string, commits: number): Promise<{ perSecond: number; ms: number[] }> {
  const script = `set -e
export GIT_DIR="$1" GIT_INDEX_FILE="$1/floor-index"
git read-tree main
parent=$(git rev-parse main)
for i in $(seq 1 "$2"); do
  s=$(date +%s%N)
  blob=$(echo "floor $i" | git hash-object -w --stdin)
  git update-index --add --cacheinfo "100644,$blob,floor/file-$i.md"
  tree=$(git write-tree)
  parent=$(echo "floor $i" | git commit-tree "$tree" -p "$parent")
  git update-ref refs/heads/main "$parent"
  echo $(( ($(date +%s%N) - s) / 1000 ))
done`;
  const start = process.hrtime.bigint();
  const { stdout } = await run('bash', ['-c', script, 'floor', repo, String(commits)], { env });
  const total = elapsedMs(start);
  return {
    perSecond: commits / (total / 1000),
    ms: stdout
      .trim()
      .split('\n')
      .map((us) => Number(us) / 1000),
  };
}

/** One `git fast-import` writing `commits` one-file commits on top of main: commits per second. */
export async function fastImport(repo: string, commits: number): Promise<number> {
  const parent = (await git(repo, ['rev-parse', 'main'])).stdout.toString().trim();
  const parts: string[] = [];
  for (let i = 1; i <= commits; i++) {
    const body = `fast-import ${i}\n`;
    parts.push(
      `commit refs/heads/main\nmark :${i}\ncommitter F <f@f> ${1_700_000_000 + i} +0000\ndata 3\nfi\n`,
      i === 1 ? `from ${parent}\n` : '',
      `M 100644 inline fi/${i % 256}/file-${i}.md\ndata ${Buffer.byteLength(body)}\n${body}\n`,
    );
  }
  const start = process.hrtime.bigint();
  await git(repo, ['fast-import', '--quiet', '--date-format=raw'], { input: parts.join('') });
  return commits / (elapsedMs(start) / 1000);
}

/** A history of `commits` commits (one file each) on top of main, written by one fast-import. */
export async function growHistory(repo: string, commits: number): Promise<void> {
  await fastImport(repo, commits);
}
