import { spawn } from 'node:child_process';
import { objectId } from './object-writer';
import { gitBinary, gitEnv } from './git-binary';
import { parseTree, readObject } from './object-reader';

/**
 * Plain `git` plumbing on bare repositories, one child process per call, no working tree: blobs, trees and commits are
 * written straight into the object database and the branch moves with a compare-and-swap `update-ref`.
 */
export interface GitRun {
  /** Standard input: data, or an open file's descriptor (the child reads it on its own, the event loop busy or not). */
  input?: string | Buffer | { fd: number };
  env?: Record<string, string>;
  /** Exit codes that are answers, not failures (e.g. 1 for "not found"). */
  okCodes?: number[];
}

export class GitError extends Error {
  constructor(
    readonly args: string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args[0] ?? ''} failed (${String(code)}): ${stderr.trim().slice(0, 500)}`);
  }
}

export function git(repo: string, args: string[], opts: GitRun = {}): Promise<{ stdout: Buffer; code: number }> {
  const input = opts.input ?? '';
  const fd = typeof input === 'object' && !Buffer.isBuffer(input) ? input.fd : null;
  return new Promise((resolve, reject) => {
    const child = spawn(gitBinary(), ['--git-dir', repo, ...args], {
      env: { ...gitEnv(), ...opts.env },
      stdio: [fd ?? 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout?.on('data', (d: Buffer) => out.push(d));
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0 || (code !== null && opts.okCodes?.includes(code))) {
        resolve({ stdout: Buffer.concat(out), code: code ?? 0 });
      } else reject(new GitError(args, code, err));
    });
    if (!child.stdin) return;
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

export async function gitText(repo: string, args: string[], opts: GitRun = {}): Promise<string> {
  return (await git(repo, args, opts)).stdout.toString('utf8');
}

/** The commit a ref points at, or null (an empty repository, an unknown ref). */
export async function resolveRef(repo: string, ref: string): Promise<string | null> {
  const { stdout, code } = await git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], {
    okCodes: [1, 128],
  });
  return code === 0 ? stdout.toString().trim() : null;
}

export interface TreeEntry {
  path: string;
  mode: string;
  sha: string;
  /** Only when asked for (`sizes`): git then opens every blob to learn it. */
  size?: number;
}

/** Folders (`a/b/`) or paths as `ls-tree` takes them: '' or none is the whole tree. */
export type Pathspecs = string | readonly string[];

/**
 * Every file of a commit (recursive), optionally under some folders (pathspecs: only those subtrees are read). Blob
 * sizes only with `sizes`: they cost a lookup of every blob.
 */
export async function listFiles(
  repo: string,
  commit: string,
  under: Pathspecs = '',
  opts: { sizes?: boolean } = {},
): Promise<TreeEntry[]> {
  const args = ['ls-tree', '-r', '-z', ...(opts.sizes ? ['--long'] : []), commit];
  const specs = (typeof under === 'string' ? [under] : under).filter(Boolean);
  if (specs.length > 0) args.push('--', ...specs);
  const out = await gitText(repo, args);
  return out
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf('\t');
      const [mode = '', , sha = '', size = '0'] = line.slice(0, tab).split(/\s+/);
      const entry: TreeEntry = { path: line.slice(tab + 1), mode, sha };
      if (opts.sizes) entry.size = Number(size);
      return entry;
    });
}

/** Contents of many blobs through one `cat-file --batch` process. */
export async function readBlobs(repo: string, shas: string[]): Promise<Map<string, Buffer>> {
  const result = new Map<string, Buffer>();
  const unique = [...new Set(shas)];
  if (unique.length === 0) return result;
  const { stdout } = await git(repo, ['cat-file', '--batch'], { input: `${unique.join('\n')}\n` });
  let offset = 0;
  for (const sha of unique) {
    const eol = stdout.indexOf(0x0a, offset);
    const header = stdout.subarray(offset, eol).toString();
    const [, type, size] = header.split(' ');
    if (type !== 'blob') throw new Error(`object ${sha} is not a blob`);
    const start = eol + 1;
    result.set(sha, stdout.subarray(start, start + Number(size)));
    offset = start + Number(size) + 1;
  }
  return result;
}

/**
 * Every file of a commit with its content (text), keyed by path, optionally under some folders (or files); `keep`
 * picks files before their contents are read. Read through the repository's long-lived object reader
 * (object-reader.ts): the trees level by level from the folders down, then the kept blobs, each level's reads
 * pipelined, with no process started.
 */
export async function readTree(
  repo: string,
  commit: string | null,
  under: Pathspecs = '',
  keep: (path: string) => boolean = () => true,
): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  if (!commit) return files;
  const specs = typeof under === 'string' ? [under] : [...under];
  const roots = specs.length === 0 || specs.includes('') ? [''] : specs.map((spec) => spec.replace(/\/+$/, ''));
  const blobs: { path: string; sha: string }[] = [];
  let level = roots.map((root) => ({ path: root, spec: root ? `${commit}:${root}` : `${commit}^{tree}` }));
  while (level.length > 0) {
    const objects = await Promise.all(level.map((item) => readObject(repo, item.spec)));
    const next: typeof level = [];
    level.forEach((item, i) => {
      const object = objects[i];
      if (object?.type === 'blob' && keep(item.path)) files.set(item.path, object.body.toString('utf8'));
      if (object?.type !== 'tree') return;
      for (const entry of parseTree(object.body)) {
        const file = item.path ? `${item.path}/${entry.name}` : entry.name;
        if (entry.mode === '40000') next.push({ path: file, spec: entry.sha });
        else if (entry.mode.startsWith('100') && keep(file)) blobs.push({ path: file, sha: entry.sha });
      }
    });
    level = next;
  }
  const contents = await Promise.all(blobs.map((blob) => readObject(repo, blob.sha)));
  blobs.forEach((blob, i) => files.set(blob.path, contents[i]?.body.toString('utf8') ?? ''));
  return files;
}

/** The blob ids `git hash-object` would give these contents (no object is written). */
export function blobId(content: string | Buffer): string {
  return objectId('blob', Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'));
}
