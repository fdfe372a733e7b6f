import fs from 'node:fs/promises';
import path from 'node:path';
import { git, gitText } from './git-plumbing';
import { fastImportCommit, type TreeAhead } from './fast-import-commit';
import { looseObjects, writeTree, type ObjectStore } from './object-writer';
import { MAIN_BRANCH } from './repository-store';

export interface FileChanges {
  /** path -> new content */
  writes: Map<string, string>;
  deletes: string[];
  /**
   * The parent's files the changes were computed from, when the operation read them: every file directly in each
   * Application directory under one of `folders` (the deployed-state record then needs no git process).
   */
  base?: { folders: string[]; files: Map<string, string> };
  /**
   * The objects the operation dumped into its generated files' text, by path (RenderedFiles): a reader of the commit's
   * manifests uses them instead of parsing that text back.
   */
  objects?: ReadonlyMap<string, unknown>;
  /** The digest the render knew of an Application directory holding exactly `files` (RenderedFiles.directoryDigest). */
  directoryDigest?: (dir: string, files: ReadonlyMap<string, string>) => string | undefined;
  /**
   * The tree these changes give on the parent, built ahead beside the caller's other work (fast-import-commit.ts
   * fastImportTree; a generate's, during its validation); null when that failed, and the commit builds it itself.
   */
  ahead?: Promise<TreeAhead | null>;
}

export interface CommitMeta {
  author: { name: string; email: string };
  message: string;
  /** `Key: value` lines after the message; values are single lines. */
  trailers: [string, string][];
}

const BRANCH_REF = `refs/heads/${MAIN_BRANCH}`;
const ZERO = '0'.repeat(40);
const COMMITTER = 'Delivery Platform <git@delivery-platform.invalid>';

const oneLine = (value: string) => value.replace(/[\r\n\0]+/g, ' ').trim();
/** A name or email as a commit header takes it: one line, no angle brackets. */
const identPart = (value: string) => oneLine(value).replace(/[<>]/g, '');

export function commitMessage(meta: Pick<CommitMeta, 'message' | 'trailers'>): string {
  const body = meta.message.replace(/\0/g, '').trim() || 'Update';
  return `${body}\n\n${meta.trailers.map(([k, v]) => `${k}: ${oneLine(v)}`).join('\n')}\n`;
}

/**
 * A commit changing at least this many files is written by one `git fast-import` into a pack of its own; a smaller one
 * in this process as loose objects. Measured (bench:commits): a one-file commit in-process takes a fraction of the
 * process start alone, while thousands of loose objects cost more than one pack and make gc's work.
 */
export const PACKED_COMMIT_FILES = 100;

/**
 * Builds the commit of `parent` plus `changes` without moving any ref: the blobs, the trees of the changed paths only
 * (every other entry kept by its id) and the commit. Returns the commit, or null when the changes leave the parent's
 * tree as it is (never an empty commit; unreferenced objects go at the next maintenance). The objects go to `store`:
 * loose objects unless a pass keeps them for one pack (pending-objects.ts), written when the caller flushes it; without
 * a store, loose objects written before this returns.
 */
export async function buildCommit(
  repo: string,
  parent: string | null,
  changes: FileChanges,
  meta: CommitMeta,
  store?: ObjectStore,
): Promise<string | null> {
  if (!store) {
    const own = looseObjects(repo);
    const sha = await buildCommit(repo, parent, changes, meta, own);
    await own.flush();
    return sha;
  }
  const deletes = changes.deletes.filter((file) => !changes.writes.has(file));
  if (parent === null && changes.writes.size === 0) return null;
  const when = `${Math.floor(Date.now() / 1000)} +0000`;
  const author = `${identPart(meta.author.name) || 'unknown'} <${identPart(meta.author.email) || 'unknown@delivery-platform.invalid'}>`;
  const commit = { author: `${author} ${when}`, committer: `${COMMITTER} ${when}`, message: commitMessage(meta) };
  // Only a change that has a tree built ahead waits for it: every other commit goes on without an extra turn.
  const ahead = changes.ahead && (await changes.ahead);
  if (ahead) {
    // The branch moves after the store's flush, which waits for the tree's objects when they are still being written.
    if (ahead.written) store.include(ahead.written);
    if (ahead.tree === ahead.parentTree) return null;
    return commitObject(store, ahead.tree ?? store.put('tree', Buffer.alloc(0)), parent, commit);
  }
  if (changes.writes.size + deletes.length >= PACKED_COMMIT_FILES) {
    // fast-import reads the parent from the repository.
    await store.flush();
    return fastImportCommit(repo, parent, { writes: changes.writes, deletes }, commit);
  }
  const { tree, parentTree } = await writeTree(store, parent, changes.writes, deletes);
  if (tree === parentTree) return null;
  return commitObject(store, tree, parent, commit);
}

function commitObject(
  store: ObjectStore,
  tree: string,
  parent: string | null,
  commit: { author: string; committer: string; message: string },
): string {
  const header = [`tree ${tree}`, ...(parent ? [`parent ${parent}`] : [])];
  const body = `${header.join('\n')}\nauthor ${commit.author}\ncommitter ${commit.committer}\n\n${commit.message}`;
  return store.put('commit', Buffer.from(body, 'utf8'));
}

/** A lock older than this was left by a process that died between taking and renaming it (writers hold it for ms). */
const STALE_LOCK_MS = 30_000;

/**
 * Creates `<ref>.lock` exclusively. Another holder is git itself (gc's pack-refs holds it for a moment): wait a little;
 * one older than STALE_LOCK_MS was left by a dead process (we hold the repository's advisory lock), so it is removed.
 */
async function takeLock(lock: string): Promise<fs.FileHandle> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fs.open(lock, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 50) throw err;
      const age = await fs.stat(lock).then(
        (st) => Date.now() - st.mtimeMs,
        () => 0,
      );
      if (age > STALE_LOCK_MS) await fs.rm(lock, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/**
 * Moves the branch from `from` (null: it does not exist) to `to`, compare-and-swap: fails if it moved meanwhile.
 * Written the way git's files backend writes a loose ref (create `<ref>.lock` exclusively, check the old value, write,
 * fsync, rename over the ref), without a git process: this is the hot path, and a process costs more than the write.
 * Loose refs win over packed-refs, so a branch that gc packed is moved the same way.
 */
export async function moveBranch(repo: string, to: string, from: string | null): Promise<void> {
  const ref = path.join(repo, BRANCH_REF);
  const lock = `${ref}.lock`;
  await fs.mkdir(path.dirname(ref), { recursive: true });
  const handle = await takeLock(lock);
  try {
    try {
      const current = await readBranch(repo);
      if (current !== from) throw new Error(`${BRANCH_REF} is at ${String(current)}, not ${String(from)}`);
      await handle.writeFile(`${to}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(lock, ref);
  } catch (err) {
    await fs.rm(lock, { force: true });
    throw err;
  }
}

/**
 * Puts the branch back from `from` to `to` (null: deletes it), only if it is still at `from` (null: absent); false
 * if it is elsewhere.
 */
export async function restoreBranch(repo: string, from: string | null, to: string | null): Promise<boolean> {
  const args = to ? ['update-ref', BRANCH_REF, to, from ?? ZERO] : ['update-ref', '-d', BRANCH_REF, from ?? ZERO];
  return git(repo, args).then(
    () => true,
    () => false,
  );
}

/**
 * The branch's commit, read from the ref files (a loose ref, else packed-refs) without a git process; null when the
 * branch does not exist.
 */
export async function readBranch(repo: string): Promise<string | null> {
  const loose = await fs.readFile(path.join(repo, BRANCH_REF), 'utf8').catch(() => null);
  if (loose !== null) {
    const sha = loose.trim();
    if (/^[0-9a-f]{40}$/.test(sha)) return sha;
  }
  const packed = await fs.readFile(path.join(repo, 'packed-refs'), 'utf8').catch(() => '');
  for (const line of packed.split('\n')) {
    if (line.endsWith(` ${BRANCH_REF}`)) return line.slice(0, 40);
  }
  return null;
}

/** Idempotency keys are plain tokens, so they go into a regular expression as they are. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The newest commit of the branch carrying `Idempotency-Key: <key>`, by a scan of the history: only for repositories
 * older than the commit records (git_commits), whose keys are found there otherwise.
 * `tip` is the branch's commit when the caller resolved it already (null: the branch does not exist).
 */
export async function findCommitByKey(repo: string, key: string, tip?: string | null): Promise<string | null> {
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw new Error('invalid idempotency key');
  const from = tip === undefined ? await readBranch(repo) : tip;
  if (from === null) return null;
  const out = await gitText(repo, [
    'log',
    '-n',
    '1',
    '--format=%H',
    '--extended-regexp',
    `--grep=^Idempotency-Key: ${key}$`,
    from,
    '--',
  ]);
  return out.trim() || null;
}
