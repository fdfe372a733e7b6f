import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { blobId, git, gitText, resolveRef } from './git-plumbing';
import { MAIN_BRANCH } from './repository-store';

export interface FileChanges {
  /** path -> new content */
  writes: Map<string, string>;
  deletes: string[];
}

export interface CommitMeta {
  author: { name: string; email: string };
  message: string;
  /** `Key: value` lines after the message; values are single lines. */
  trailers: [string, string][];
}

const BRANCH_REF = `refs/heads/${MAIN_BRANCH}`;
const ZERO = '0'.repeat(40);
const COMMITTER = { GIT_COMMITTER_NAME: 'Delivery Platform', GIT_COMMITTER_EMAIL: 'git@delivery-platform.invalid' };

const oneLine = (value: string) => value.replace(/[\r\n\0]+/g, ' ').trim();

export function commitMessage(meta: Pick<CommitMeta, 'message' | 'trailers'>): string {
  const body = meta.message.replace(/\0/g, '').trim() || 'Update';
  return `${body}\n\n${meta.trailers.map(([k, v]) => `${k}: ${oneLine(v)}`).join('\n')}\n`;
}

/** Writes the blobs of `writes` in one `fast-import` process (one pack, whatever the number of files). */
async function writeBlobs(repo: string, writes: Map<string, string>): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const chunks: Buffer[] = [];
  for (const [file, content] of writes) {
    const body = Buffer.from(content, 'utf8');
    ids.set(file, blobId(body));
    chunks.push(Buffer.from(`blob\ndata ${body.length}\n`), body, Buffer.from('\n'));
  }
  if (chunks.length > 0) await git(repo, ['fast-import', '--quiet'], { input: Buffer.concat(chunks) });
  return ids;
}

/**
 * Builds the tree of `parent` plus `changes` in a temporary index (GIT_INDEX_FILE; a bare repository has no index of
 * its own), and commits it when it differs from the parent's tree. The branch moves with a compare-and-swap from
 * `parent`, so a writer that raced past the repository lock would fail here instead of losing an update.
 * Returns the new commit, or null when the changes leave the tree as it was (never an empty commit).
 */
export async function writeCommit(
  repo: string,
  parent: string | null,
  changes: FileChanges,
  meta: CommitMeta,
): Promise<string | null> {
  const index = path.join(os.tmpdir(), `platform-index-${randomUUID()}`);
  const env = { GIT_INDEX_FILE: index };
  try {
    await git(repo, parent ? ['read-tree', parent] : ['read-tree', '--empty'], { env });
    const blobs = await writeBlobs(repo, changes.writes);
    const lines = [
      ...[...blobs].map(([file, sha]) => `100644 ${sha}\t${file}`),
      ...changes.deletes.filter((f) => !blobs.has(f)).map((f) => `0 ${ZERO}\t${f}`),
    ];
    if (lines.length > 0)
      await git(repo, ['update-index', '-z', '--index-info'], { env, input: lines.join('\0') + '\0' });
    const tree = (await gitText(repo, ['write-tree'], { env })).trim();
    const parentTree = parent ? (await gitText(repo, ['rev-parse', `${parent}^{tree}`])).trim() : null;
    if (tree === parentTree || (parent === null && lines.length === 0)) return null;
    const commit = (
      await gitText(repo, ['commit-tree', tree, ...(parent ? ['-p', parent] : [])], {
        input: commitMessage(meta),
        env: {
          ...COMMITTER,
          GIT_AUTHOR_NAME: oneLine(meta.author.name) || 'unknown',
          GIT_AUTHOR_EMAIL: oneLine(meta.author.email) || 'unknown@delivery-platform.invalid',
        },
      })
    ).trim();
    await git(repo, ['update-ref', BRANCH_REF, commit, parent ?? ZERO]);
    return commit;
  } finally {
    await fs.rm(index, { force: true });
  }
}

/** Idempotency keys are plain tokens, so they go into a regular expression as they are. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The newest commit of the branch carrying `Idempotency-Key: <key>`: what a retried write finds instead of redoing.
 * `tip` is the branch's commit when the caller resolved it already (null: the branch does not exist).
 */
export async function findCommitByKey(repo: string, key: string, tip?: string | null): Promise<string | null> {
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw new Error('invalid idempotency key');
  const from = tip === undefined ? await resolveRef(repo, BRANCH_REF) : tip;
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
