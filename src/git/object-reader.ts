import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { gitBinary, gitEnv } from './git-binary';

/** An object as `git cat-file --batch` gives it. */
export interface GitObject {
  sha: string;
  type: string;
  body: Buffer;
}

/** One entry of a tree object. */
export interface RawTreeEntry {
  mode: string;
  name: string;
  sha: string;
}

/** A reader with nothing asked of it for this long ends its process; the next read starts another. */
const IDLE_MS = 30_000;
/** At most this many repositories keep a reader; the least recently used one ends first. */
const MAX_READERS = 32;

interface Waiting {
  resolve: (object: GitObject | null) => void;
  reject: (err: unknown) => void;
}

/**
 * One long-lived `git cat-file --batch` on one repository: reads answer in the order they were asked, with no process
 * started per read (issue 35: the commit path read its targets' folders with two processes per commit). Objects that
 * arrive later are found as git finds them (a loose object by its path, a new pack by rescanning the packs on a miss),
 * so the reader never goes stale. The process holds the event loop only while a read waits.
 */
class BatchReader {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: Waiting[] = [];
  private chunks: Buffer[] = [];
  private buffered = 0;
  private idle: NodeJS.Timeout | null = null;
  closed = false;

  constructor(
    readonly repo: string,
    private readonly onClose: (reader: BatchReader) => void,
  ) {
    this.child = spawn(gitBinary(), ['--git-dir', repo, 'cat-file', '--batch'], {
      env: gitEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.on('data', (chunk: Buffer) => this.take(chunk));
    this.child.stderr.resume();
    this.child.stdin.on('error', () => undefined);
    this.child.on('error', (err) => this.fail(err));
    this.child.on('close', () => this.fail(new Error(`git cat-file on ${repo} ended`)));
    this.hold(false);
  }

  read(spec: string): Promise<GitObject | null> {
    if (/[\n\0]/.test(spec)) return Promise.reject(new Error('an object name holds a line break'));
    if (this.closed) return Promise.reject(new Error('reader closed'));
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    if (this.waiting.length === 0) this.hold(true);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.child.stdin.write(`${spec}\n`);
    });
  }

  close(): void {
    if (this.closed) return;
    this.fail(new Error('reader closed'));
    this.child.stdin.end();
    this.child.kill();
  }

  /** Keeps the event loop alive while reads wait (a waiting read is work in progress), never while idle. */
  private hold(busy: boolean): void {
    // The pipes are sockets (net.Socket): they can be unreferenced like the process.
    const pipes = [this.child.stdin, this.child.stdout, this.child.stderr] as unknown as {
      ref(): void;
      unref(): void;
    }[];
    for (const handle of [this.child, ...pipes]) {
      if (busy) handle.ref();
      else handle.unref();
    }
  }

  private fail(err: unknown): void {
    if (this.closed) return;
    this.closed = true;
    if (this.idle) clearTimeout(this.idle);
    for (const waiter of this.waiting.splice(0)) waiter.reject(err);
    this.onClose(this);
  }

  private take(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    let data = this.chunks.length === 1 ? chunk : Buffer.concat(this.chunks, this.buffered);
    let offset = 0;
    while (this.waiting.length > 0) {
      const eol = data.indexOf(0x0a, offset);
      if (eol === -1) break;
      const header = data.subarray(offset, eol).toString('utf8');
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.waiting.shift()?.resolve(null);
        offset = eol + 1;
        continue;
      }
      const [sha = '', type = '', size = '0'] = header.split(' ');
      const end = eol + 1 + Number(size);
      if (data.length < end + 1) break;
      this.waiting.shift()?.resolve({ sha, type, body: Buffer.from(data.subarray(eol + 1, end)) });
      offset = end + 1;
    }
    data = data.subarray(offset);
    this.chunks = data.length > 0 ? [data] : [];
    this.buffered = data.length;
    if (this.waiting.length === 0 && !this.closed) {
      this.hold(false);
      this.idle = setTimeout(() => this.close(), IDLE_MS);
      this.idle.unref();
    }
  }
}

const readers = new Map<string, BatchReader>();

function readerOf(repo: string): BatchReader {
  const known = readers.get(repo);
  if (known && !known.closed) {
    // Most recently used last (Map order), so the first key is the one to end when there are too many.
    readers.delete(repo);
    readers.set(repo, known);
    return known;
  }
  const reader = new BatchReader(repo, (gone) => readers.get(gone.repo) === gone && readers.delete(gone.repo));
  readers.set(repo, reader);
  if (readers.size > MAX_READERS) readers.values().next().value?.close();
  return reader;
}

/** The object `spec` names (`<sha>`, `<commit>:<path>`, `<commit>^{tree}`), or null when there is none. */
export function readObject(repo: string, spec: string): Promise<GitObject | null> {
  return readerOf(repo).read(spec);
}

/** The entries of a tree object's body. */
export function parseTree(body: Buffer): RawTreeEntry[] {
  const entries: RawTreeEntry[] = [];
  for (let offset = 0; offset < body.length;) {
    const space = body.indexOf(0x20, offset);
    const nul = body.indexOf(0, space);
    const mode = body.subarray(offset, space).toString('latin1');
    const name = body.subarray(space + 1, nul).toString('utf8');
    entries.push({ mode, name, sha: body.subarray(nul + 1, nul + 21).toString('hex') });
    offset = nul + 21;
  }
  return entries;
}

/**
 * Ends the readers of this process (tests, shutdown): every one, or those of the repositories under `root` (a stopping
 * platform's: a reader keeps the repository's packs mapped, so its volume could not be unmounted).
 */
export function closeObjectReaders(root?: string): void {
  const under = root === undefined ? null : `${root.replace(/\/+$/, '')}/`;
  for (const reader of [...readers.values()]) if (under === null || reader.repo.startsWith(under)) reader.close();
}
