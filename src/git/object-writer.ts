import { createHash, hash } from 'node:crypto';
import path from 'node:path';
import { deflateObject } from './object-compression';
import { readObject, type GitObject } from './object-reader';
import { writeLooseFiles, type LooseFile } from './loose-object-thread';

/** The id of the tree with no entries (the same in every repository). */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

type ObjectType = 'blob' | 'tree' | 'commit';

/** The id git gives an object: the SHA-1 of `<type> <size>\0<body>`. */
export function objectId(type: 'blob' | 'tree' | 'commit', body: Buffer | string): string {
  // A text in one call, never made a Buffer (issue 46: a generate's tree hashes 5,000 of them).
  if (typeof body === 'string') return hash('sha1', `${type} ${Buffer.byteLength(body, 'utf8')}\0${body}`, 'hex');
  return createHash('sha1').update(`${type} ${body.length}\0`).update(body).digest('hex');
}

/** An object's body as bytes: a string is its UTF-8 encoding. */
export const bytesOf = (body: Buffer | string): Buffer => (typeof body === 'string' ? Buffer.from(body, 'utf8') : body);

/** Where a loose object of `sha` lives in `repo`, and its file's bytes: zlib-deflated `<type> <size>\0<body>`. */
function looseFile(repo: string, sha: string, type: ObjectType, body: Buffer): LooseFile {
  return {
    file: path.join(repo, 'objects', sha.slice(0, 2), sha.slice(2)),
    data: deflateObject(type, Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body])),
  };
}

/**
 * Writes one object as a loose object, the way git writes one (loose-object-thread.ts: a temporary file renamed into
 * place, read-only). An object already present as a loose file is not written again; one already in a pack is
 * written loose once more, which git reads the same and the next `gc` folds away. Loose objects are not fsynced, as
 * git's default (`core.fsync`) leaves them; the branch that makes them reachable is (commit-writer.ts moveBranch).
 */
export async function writeObject(repo: string, type: 'blob' | 'tree' | 'commit', body: Buffer): Promise<string> {
  const sha = objectId(type, body);
  await writeLooseFiles([looseFile(repo, sha, type, body)]);
  return sha;
}

/**
 * Where a commit's objects go and are read back from: the repository's loose objects (`looseObjects`), or the pack a
 * pass of several commits writes once (pending-objects.ts). Either keeps what `put` gets in memory until `flush`.
 */
export interface ObjectStore {
  /** Keeps an object (a string body is its UTF-8 bytes); returns its id. */
  put(type: ObjectType, body: Buffer | string): string;
  read(sha: string): Promise<GitObject | null>;
  /** Puts what `put` kept in the repository, for readers outside this store (a `git` process, a read by path). */
  flush(): Promise<void>;
  /**
   * Objects another writer is putting into the repository (a `git fast-import` building a tree ahead, whose ids were
   * hashed here): `flush` settles once they are there, and fails if their writer failed.
   */
  include(written: Promise<void>): void;
}

/** What building a tree needs of a store: ids of new objects, and the objects it builds on. */
export type TreeObjects = Pick<ObjectStore, 'put' | 'read'>;

/** The writes of others a store's `flush` waits for (ObjectStore.include). */
export class WrittenElsewhere {
  private writes: Promise<void>[] = [];

  add(written: Promise<void>): void {
    this.writes.push(written);
  }

  /** Every write added so far has ended; the first failure is the answer. */
  async settled(): Promise<void> {
    const writes = this.writes;
    this.writes = [];
    await Promise.all(writes);
  }
}

/**
 * Ids only, nothing kept or written: the objects of a tree another writer puts into the repository (a fast-import
 * building a generate's tree ahead: generate-ahead.ts), so that the commit on it can be made before that ends.
 */
export function hashedObjects(repo: string): TreeObjects {
  return { put: objectId, read: (sha) => readObject(repo, sha) };
}

/**
 * A commit's objects as loose files, written together when flushed (issue 46): deflated here, written in one request
 * to the loose object thread (loose-object-thread.ts), so that the event loop goes on with other requests while the
 * file system creates them (a new file took 0.6 to 1.3 ms of the kernel's time on the VMs measured, and a commit
 * writes about ten). Every write has ended, failed or not, when `flush` settles; a failure is its answer.
 */
export function looseObjects(repo: string): ObjectStore {
  const kept = new Map<string, GitObject & { type: ObjectType }>();
  const elsewhere = new WrittenElsewhere();
  return {
    put(type, text) {
      const body = bytesOf(text);
      const sha = objectId(type, body);
      kept.set(sha, { sha, type, body });
      return sha;
    },
    read: (sha) => Promise.resolve(kept.get(sha) ?? readObject(repo, sha)),
    async flush() {
      const objects = [...kept.values()];
      kept.clear();
      await Promise.all([
        writeLooseFiles(objects.map((o) => looseFile(repo, o.sha, o.type, o.body))),
        elsewhere.settled(),
      ]);
    },
    include: (written) => elsewhere.add(written),
  };
}

/** A folder's pending changes: files written or removed directly in it, and its subfolders' changes. */
interface Folder {
  writes: Map<string, string>;
  deletes: Set<string>;
  folders: Map<string, Folder>;
}

const newFolder = (): Folder => ({ writes: new Map(), deletes: new Set(), folders: new Map() });

/** The folders of the changed paths only, as a tree of pending changes. */
function changeTree(writes: Map<string, string>, deletes: string[]): Folder {
  const root = newFolder();
  const folderOf = (parts: string[]) => {
    let folder = root;
    for (const part of parts) {
      let next = folder.folders.get(part);
      if (!next) folder.folders.set(part, (next = newFolder()));
      folder = next;
    }
    return folder;
  };
  for (const file of deletes) {
    const parts = file.split('/');
    folderOf(parts.slice(0, -1)).deletes.add(parts.at(-1) ?? '');
  }
  for (const [file, content] of writes) {
    const parts = file.split('/');
    folderOf(parts.slice(0, -1)).writes.set(parts.at(-1) ?? '', content);
  }
  return root;
}

/**
 * A tree object's entry: its bytes as the tree holds them (`<mode> <name>\0<20-byte id>`, kept as they are when the
 * entry does not change) and git's sort key: the name's bytes, a folder's as if it ended in '/' (a latin1 string of
 * the bytes compares as the bytes do).
 */
interface TreeEntry {
  bytes: Buffer;
  key: string;
  folder: boolean;
}

/** The entries of a tree object's body by name, without copying their bytes (issue 46: cost per changed path). */
function entriesOf(body: Buffer): Map<string, TreeEntry> {
  const entries = new Map<string, TreeEntry>();
  for (let offset = 0; offset < body.length;) {
    const space = body.indexOf(0x20, offset);
    const nul = body.indexOf(0, space);
    const name = body.subarray(space + 1, nul);
    // Only a folder's mode (40000) starts with 4: files are 100644, 100755, 120000 (a link), 160000 (a submodule).
    const folder = body[offset] === 0x34;
    const end = nul + 21;
    entries.set(name.toString('utf8'), {
      bytes: body.subarray(offset, end),
      key: folder ? `${name.toString('latin1')}/` : name.toString('latin1'),
      folder,
    });
    offset = end;
  }
  return entries;
}

/** Outside printable ASCII: a name without any has UTF-8 bytes that are its characters, and so is their latin1 string. */
const NOT_ASCII = /[^\x20-\x7e]/;

/** One Buffer an entry, written in place (a generate's tree makes 6,000 of them). */
function newEntry(mode: '40000' | '100644', name: string, sha: string): TreeEntry {
  const head = `${mode} ${name}\0`;
  const ascii = !NOT_ASCII.test(name);
  const size = ascii ? head.length : Buffer.byteLength(head, 'utf8');
  const bytes = Buffer.allocUnsafe(size + 20);
  bytes.write(head, 0, 'utf8');
  bytes.write(sha, size, 'hex');
  const key = ascii ? name : Buffer.from(name, 'utf8').toString('latin1');
  return { bytes, key: mode === '40000' ? `${key}/` : key, folder: mode === '40000' };
}

function treeBody(entries: Iterable<TreeEntry>): Buffer {
  const sorted = [...entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return Buffer.concat(sorted.map((entry) => entry.bytes));
}

/**
 * The tree `tree` (null: none) with `changes` applied, written: only the trees on the changed paths are read and
 * written again, every other entry is kept by its id. Returns null when nothing is left in it (git keeps no empty
 * folder), the same id when nothing changed.
 */
async function rewriteTree(store: TreeObjects, tree: string | null, changes: Folder): Promise<string | null> {
  const read = tree ? await store.read(tree) : null;
  if (tree && read?.type !== 'tree') throw new Error(`tree ${tree} is missing`);
  const entries = read ? entriesOf(read.body) : new Map<string, TreeEntry>();
  for (const name of changes.deletes) entries.delete(name);
  const subtrees = await Promise.all(
    [...changes.folders].map(async ([name, folder]) => {
      const known = entries.get(name);
      const sha = known?.folder ? known.bytes.subarray(-20).toString('hex') : null;
      return [name, await rewriteTree(store, sha, folder)] as const;
    }),
  );
  for (const [name, sha] of subtrees) {
    if (sha) entries.set(name, newEntry('40000', name, sha));
    else entries.delete(name);
  }
  for (const [name, content] of changes.writes) {
    entries.set(name, newEntry('100644', name, store.put('blob', content)));
  }
  if (entries.size === 0) return null;
  const body = treeBody(entries.values());
  if (read && body.equals(read.body)) return tree;
  return store.put('tree', body);
}

/** The root tree of `commit`. */
export async function treeOf(store: TreeObjects, commit: string): Promise<string> {
  const object = await store.read(commit);
  const match = object?.type === 'commit' ? /^tree ([0-9a-f]{40})\n/.exec(object.body.toString('latin1')) : null;
  if (!match?.[1]) throw new Error(`commit ${commit} is missing`);
  return match[1];
}

/**
 * The root tree of `parent` (null: none) with the files of `writes` set and those of `deletes` removed, written into
 * the object database; EMPTY_TREE when nothing is left.
 */
export async function writeTree(
  store: TreeObjects,
  parent: string | null,
  writes: Map<string, string>,
  deletes: string[],
): Promise<{ tree: string; parentTree: string | null }> {
  const parentTree = parent ? await treeOf(store, parent) : null;
  const tree = (await rewriteTree(store, parentTree, changeTree(writes, deletes))) ?? EMPTY_TREE;
  if (tree === EMPTY_TREE) store.put('tree', Buffer.alloc(0));
  return { tree, parentTree };
}
