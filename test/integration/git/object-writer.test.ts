import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildCommit, moveBranch, type CommitMeta } from '../../../src/git/commit-writer';
import { fastImportCommit, fastImportTree } from '../../../src/git/fast-import-commit';
import { blobId, gitText, listFiles, readBlobs, readTree } from '../../../src/git/git-plumbing';
import { closeObjectReaders, readObject } from '../../../src/git/object-reader';
import { hashedObjects, looseObjects, writeObject, writeTree } from '../../../src/git/object-writer';
import { PendingObjects } from '../../../src/git/pending-objects';
import { writePack } from '../../../src/git/pack-writer';
import { scratchDir } from '../../helpers/scratch-dir';

const run = promisify(execFile);
afterAll(() => closeObjectReaders());

const meta: CommitMeta = { author: { name: 'A', email: 'a@example.com' }, message: 'm', trailers: [['K', 'v']] };

async function bareRepo(): Promise<string> {
  const repo = path.join(scratchDir('object-writer-'), 'r.git');
  await run('git', ['init', '--quiet', '--bare', repo]);
  return repo;
}

/** The root tree git's own fast-import makes of the same change (the reference). */
async function gitsTree(repo: string, parent: string | null, writes: Map<string, string>, deletes: string[]) {
  const when = 'A <a@example.com> 1700000000 +0000';
  const made = await fastImportCommit(
    repo,
    parent,
    { writes, deletes },
    { author: when, committer: when, message: 'x' },
  );
  return made ? (await gitText(repo, ['rev-parse', `${made}^{tree}`])).trim() : null;
}

const files = (entries: [string, string][]) => new Map(entries);

it('builds the same trees as git fast-import, in git order, passing fsck --strict', async () => {
  const repo = await bareRepo();
  const first = files([
    ['a', 'file a\n'],
    ['a.b', 'dot\n'],
    ['a-b/c.yaml', 'dash\n'],
    ['a0/x', 'zero\n'],
    ['tenants/acme/prod/web deployment.yaml', 'kind: Deployment\n'],
    ['tenants/acme/dev/web.yaml', 'kind: Service\n'],
    ['applications/acme/prod/web.yaml', 'kind: Application\n'],
    // Beyond ASCII: git orders names by their UTF-8 bytes.
    ['ü/x.yaml', 'u\n'],
    ['z€.md', 'euro € \u{1F600} (contents beyond ASCII too)\n'],
    ['z\u{1F600}.md', 'astral\n'],
    ['z\uFF21.md', 'wide\n'],
  ]);
  const root = await buildCommit(repo, null, { writes: first, deletes: [] }, meta);
  expect(root).toMatch(/^[0-9a-f]{40}$/);
  expect((await gitText(repo, ['rev-parse', `${root}^{tree}`])).trim()).toBe(await gitsTree(repo, null, first, []));
  await moveBranch(repo, root!, null);

  // Nested writes beside kept folders, a delete that empties its folder, a file replacing a folder.
  const writes = files([
    ['tenants/acme/prod/web deployment.yaml', 'kind: Deployment\nspec: {}\n'],
    ['tenants/beta/prod/api.yaml', 'kind: Service\n'],
    ['a0', 'now a file\n'],
  ]);
  const deletes = ['tenants/acme/dev/web.yaml', 'a0/x'];
  const second = await buildCommit(repo, root, { writes, deletes }, meta);
  expect((await gitText(repo, ['rev-parse', `${second}^{tree}`])).trim()).toBe(
    await gitsTree(repo, root, writes, deletes),
  );
  const listed = (await listFiles(repo, second!)).map((e) => e.path);
  expect(listed).toContain('a0');
  expect(listed.some((p) => p.startsWith('tenants/acme/dev/'))).toBe(false);
  await moveBranch(repo, second!, root);
  expect(await gitText(repo, ['log', '--format=%an <%ae>%n%B', '-1', 'main'])).toContain('K: v');
  await run('git', ['--git-dir', repo, 'fsck', '--strict', '--no-dangling']);
});

it('makes no commit for a change that leaves the tree as it is, and an empty tree when everything goes', async () => {
  const repo = await bareRepo();
  const writes = files([['x/y.yaml', 'y\n']]);
  const first = await buildCommit(repo, null, { writes, deletes: [] }, meta);
  expect(await buildCommit(repo, first, { writes, deletes: [] }, meta)).toBeNull();
  expect(await buildCommit(repo, first, { writes: new Map(), deletes: ['x/absent.yaml'] }, meta)).toBeNull();
  const emptied = await buildCommit(repo, first, { writes: new Map(), deletes: ['x/y.yaml'] }, meta);
  expect((await gitText(repo, ['rev-parse', `${emptied}^{tree}`])).trim()).toBe(
    '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  );
  await run('git', ['--git-dir', repo, 'fsck', '--strict', emptied!]);
});

it('writes large changes through fast-import into a pack and small ones as loose objects', async () => {
  const repo = await bareRepo();
  const large = files(Array.from({ length: 150 }, (_, i) => [`big/f${i}.yaml`, `n: ${i}\n`] as [string, string]));
  const packed = await buildCommit(repo, null, { writes: large, deletes: [] }, meta);
  const count = async () => gitText(repo, ['count-objects', '-v']);
  expect(await count()).toMatch(/^count: 0$/m);
  expect(await count()).toMatch(/^packs: 1$/m);
  await buildCommit(repo, packed, { writes: files([['big/f1.yaml', 'n: changed\n']]), deletes: [] }, meta);
  // One blob, two trees (big/ and the root), one commit: loose, read from beside the pack.
  expect(await count()).toMatch(/^count: 4$/m);
  expect(await count()).toMatch(/^packs: 1$/m);
});

/**
 * A repository with a first commit on its branch (`keep/k.yaml`, `old/o.yaml`) and a large change for the next: 150
 * files of 600 bytes, more than a pipe holds (which would stall an import until the event loop ran again).
 */
async function repoWithLargeChange(text = (i: number) => `n: ${i}\n`) {
  const repo = await bareRepo();
  const first = files([
    ['keep/k.yaml', 'k\n'],
    ['old/o.yaml', 'o\n'],
  ]);
  const root = await buildCommit(repo, null, { writes: first, deletes: [] }, meta);
  await moveBranch(repo, root!, null);
  const writes = files(
    Array.from({ length: 150 }, (_, i) => [`big/f${i}.yaml`, `${text(i)}${'x'.repeat(600)}\n`] as [string, string]),
  );
  return { repo, root, writes };
}

it('commits a tree built ahead by a fast-import that read its stream while this thread was busy', async () => {
  const { repo, root, writes } = await repoWithLargeChange();
  const changes = { writes, deletes: ['old/o.yaml'] };
  const packDir = path.join(repo, 'objects', 'pack');
  fs.mkdirSync(packDir, { recursive: true });
  const indexes = () => fs.readdirSync(packDir).filter((file) => file.endsWith('.idx')).length;
  const ahead = fastImportTree(repo, root, changes);
  // This thread never yields until the pack is there (or 30 s passed): the import read its stream on its own.
  const deadline = Date.now() + 30_000;
  while (indexes() === 0 && Date.now() < deadline);
  expect(indexes()).toBe(1);
  const tree = await ahead;
  expect(tree.tree).toBe(await gitsTree(repo, root, writes, changes.deletes));
  expect(tree.parentTree).toBe((await gitText(repo, ['rev-parse', `${root}^{tree}`])).trim());
  const made = await buildCommit(repo, root, { ...changes, ahead: Promise.resolve(tree) }, meta);
  expect((await gitText(repo, ['rev-parse', `${made}^{tree}`])).trim()).toBe(tree.tree);
  expect((await gitText(repo, ['rev-parse', `${made}^`])).trim()).toBe(root);
  await moveBranch(repo, made!, root);
  await run('git', ['--git-dir', repo, 'fsck', '--strict', '--no-dangling', 'main']);
  // A tree built ahead that is the parent's makes no commit; one that failed (null) is built as usual.
  const same = fastImportTree(repo, made, {
    writes: files([['big/f1.yaml', writes.get('big/f1.yaml')!]]),
    deletes: [],
  });
  expect(await buildCommit(repo, made, { writes: new Map(), deletes: [], ahead: same }, meta)).toBeNull();
  const fallback = await buildCommit(
    repo,
    made,
    { writes: files([['big/f1.yaml', 'n: one\n']]), deletes: [], ahead: Promise.resolve(null) },
    meta,
  );
  expect(await gitText(repo, ['show', `${fallback}:big/f1.yaml`])).toBe('n: one\n');
});

it("hashes a tree's ids without writing it, as fast-import builds it; a commit on it waits for its writer to land", async () => {
  const { repo, root, writes } = await repoWithLargeChange((i) => `n: ${i} \u00e9\n`);
  const objects = () => execFileSync('git', ['--git-dir', repo, 'count-objects', '-v']).toString();
  const before = objects();
  const hashed = await writeTree(hashedObjects(repo), root, writes, ['old/o.yaml']);
  expect(objects()).toBe(before);
  expect(hashed.tree).toBe(await gitsTree(repo, root, writes, ['old/o.yaml']));
  expect(hashed.parentTree).toBe((await gitText(repo, ['rev-parse', `${root}^{tree}`])).trim());

  // The commit on a tree still being written: the store's flush waits for the writer, and fails with it.
  let land: (failure?: Error) => void = () => undefined;
  const written = new Promise<void>((resolve, reject) => (land = (failure) => (failure ? reject(failure) : resolve())));
  const store = looseObjects(repo);
  const ahead = Promise.resolve({ tree: hashed.tree, parentTree: hashed.parentTree, written });
  const made = await buildCommit(repo, root, { writes, deletes: ['old/o.yaml'], ahead }, meta, store);
  let flushed = false;
  const flushing = store.flush().then(() => (flushed = true));
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(flushed).toBe(false);
  land();
  await flushing;
  expect((await gitText(repo, ['rev-parse', `${made}^{tree}`])).trim()).toBe(hashed.tree);

  const failing = looseObjects(repo);
  const broken = Promise.resolve({ ...hashed, written: Promise.reject(new Error('the import failed')) });
  await buildCommit(
    repo,
    made,
    { writes: files([['big/f1.yaml', 'n: 1\n']]), deletes: [], ahead: broken },
    meta,
    failing,
  );
  await expect(failing.flush()).rejects.toThrow('the import failed');
});

it('keeps the commits of a pass in memory, read back from there, and writes them as one pack git verifies', async () => {
  const repo = await bareRepo();
  const root = await buildCommit(repo, null, { writes: files([['a/b.yaml', 'b\n']]), deletes: [] }, meta);
  await moveBranch(repo, root!, null);
  const count = async () => gitText(repo, ['count-objects', '-v']);
  const loose = /^count: (\d+)$/m.exec(await count())?.[1];

  const pass = new PendingObjects(repo);
  let parent = root;
  // Each commit builds on the one before, whose trees only the pass's memory holds; a large blob needs the size header's
  // continuation bytes, an empty file none.
  const changes: [string, string][] = [
    ['a/c.yaml', 'c\n'],
    ['big.txt', 'x'.repeat(70_000)],
    ['a/empty', ''],
  ];
  for (const [file, content] of changes) {
    parent = await buildCommit(repo, parent, { writes: files([[file, content]]), deletes: [] }, meta, pass);
  }
  expect(await readObject(repo, parent!)).toBeNull();
  expect(new RegExp(`^count: ${loose}$`, 'm').test(await count())).toBe(true);
  expect(await count()).toMatch(/^packs: 0$/m);

  await pass.flush();
  expect(new RegExp(`^count: ${loose}$`, 'm').test(await count())).toBe(true);
  expect(await count()).toMatch(/^packs: 1$/m);
  const [index] = fs.readdirSync(path.join(repo, 'objects', 'pack')).filter((name) => name.endsWith('.idx'));
  await run('git', ['--git-dir', repo, 'verify-pack', path.join(repo, 'objects', 'pack', index!)]);
  // The long-lived reader finds the new pack, and git reads every file of the last commit.
  expect((await readObject(repo, parent!))?.type).toBe('commit');
  await moveBranch(repo, parent!, root);
  expect(await readTree(repo, parent, '')).toEqual(new Map([['a/b.yaml', 'b\n'], ...changes]));
  expect(await gitText(repo, ['show', `${parent}:big.txt`])).toBe('x'.repeat(70_000));
  await run('git', ['--git-dir', repo, 'fsck', '--strict', '--no-dangling']);
  // A pass that wrote nothing writes no pack.
  await new PendingObjects(repo).flush();
  expect(await count()).toMatch(/^packs: 1$/m);

  // A large commit in a pass goes through fast-import, which reads its parent from the repository: the pass's commits
  // kept in memory are written first.
  const next = new PendingObjects(repo);
  const small = await buildCommit(repo, parent, { writes: files([['s.md', 's\n']]), deletes: [] }, meta, next);
  const large = files(Array.from({ length: 120 }, (_, i) => [`many/f${i}.yaml`, `n: ${i}\n`] as [string, string]));
  const packed = await buildCommit(repo, small, { writes: large, deletes: [] }, meta, next);
  expect((await gitText(repo, ['rev-parse', `${packed}^`])).trim()).toBe(small);
  expect(await gitText(repo, ['show', `${packed}:s.md`])).toBe('s\n');
});

it('reads trees as ls-tree and cat-file do, and sees objects written and packed after it started', async () => {
  const repo = await bareRepo();
  const writes = files([
    ['tenants/a/prod/x.yaml', 'x\n'],
    ['tenants/a/prod/sub/y.yaml', 'y\n'],
    ['tenants/b/prod/z.yaml', 'z\n'],
    ['README.md', 'r\n'],
  ]);
  const head = await buildCommit(repo, null, { writes, deletes: [] }, meta);
  const viaGit = async (under: string[]) => {
    const entries = await listFiles(repo, head!, under);
    const blobs = await readBlobs(
      repo,
      entries.map((e) => e.sha),
    );
    return new Map(entries.map((e) => [e.path, blobs.get(e.sha)!.toString('utf8')]));
  };
  expect(await readTree(repo, head, '')).toEqual(await viaGit([]));
  expect(await readTree(repo, head, ['tenants/a/prod/', 'tenants/missing/'])).toEqual(
    await viaGit(['tenants/a/prod/']),
  );
  expect(await readTree(repo, head, 'tenants/', (file) => file.endsWith('z.yaml'))).toEqual(
    new Map([['tenants/b/prod/z.yaml', 'z\n']]),
  );
  expect(await readObject(repo, `${head}:no/such/path`)).toBeNull();

  // Many reads at once answer in order through the one process.
  const shas = await Promise.all(Array.from({ length: 200 }, (_, i) => writeObject(repo, 'blob', Buffer.from(`${i}`))));
  const read = await Promise.all(shas.map((sha) => readObject(repo, sha)));
  expect(read.map((o) => o?.body.toString())).toEqual(shas.map((_, i) => `${i}`));

  // Packed and pruned after the reader started: found in the new pack.
  const store = looseObjects(repo);
  const { tree } = await writeTree(store, head, files([['late.md', 'late\n']]), []);
  await store.flush();
  await run('git', ['--git-dir', repo, 'repack', '-a', '-d', '-q']);
  await run('git', ['--git-dir', repo, 'prune-packed']);
  const late = await readObject(repo, tree);
  expect(late?.type).toBe('tree');
  expect(late?.body.includes(Buffer.from('late.md'))).toBe(true);
});

/** Appends zeros to `file` until the volume under it has no byte left. */
function fill(file: string): void {
  const chunk = Buffer.alloc(4096);
  for (;;) {
    try {
      fs.appendFileSync(file, chunk);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOSPC') return;
      throw err;
    }
  }
}

it('leaves no temporary file behind when a write fails on a full disk, one object or a commit of several', async () => {
  const volume = scratchDir('object-writer-full-');
  // Root mounts it (CI and this machine run the suite as root): a volume that really fills up. The objects are
  // written by the loose object thread, so only a real full disk (not a mocked write) reaches it.
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', volume]);
  try {
    const repo = path.join(volume, 'r.git');
    await run('git', ['init', '--quiet', '--bare', repo]);
    const filler = path.join(volume, 'filler');
    fill(filler);
    const commit = files([
      ['a.md', 'a\n'],
      ['b/c.md', 'c\n'],
    ]);
    await expect(writeObject(repo, 'blob', Buffer.from('a full disk\n'))).rejects.toMatchObject({ code: 'ENOSPC' });
    const store = looseObjects(repo);
    await writeTree(store, null, commit, []);
    await expect(store.flush()).rejects.toMatchObject({ code: 'ENOSPC' });
    const leftovers = fs
      .readdirSync(path.join(repo, 'objects'), { recursive: true, encoding: 'utf8' })
      .filter((name) => path.basename(name).startsWith('tmp_obj_'));
    expect(leftovers).toEqual([]);
    // Space back: the same objects are written, and git reads them.
    fs.rmSync(filler);
    const again = looseObjects(repo);
    const { tree } = await writeTree(again, null, commit, []);
    await again.flush();
    expect((await run('git', ['--git-dir', repo, 'ls-tree', '-r', '--name-only', tree!])).stdout).toBe(
      'a.md\nb/c.md\n',
    );
  } finally {
    execFileSync('umount', [volume]);
  }
});

it('leaves neither a temporary file nor a pack without its index when a pass pack fails to write (a full disk)', async () => {
  const repo = await bareRepo();
  const real = fs.writeFileSync.bind(fs);
  // The pack is written, then the disk fills while its index is written.
  const spy = jest.spyOn(fs, 'writeFileSync').mockImplementation((file, data, options) => {
    if (!String(file).endsWith('.idx')) return real(file, data, options);
    real(file, Buffer.from(data as Uint8Array).subarray(0, 4));
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  });
  try {
    const blob = Buffer.from('a full disk\n');
    const sha = blobId(blob);
    expect(() => writePack(repo, [{ sha, type: 'blob', body: blob }])).toThrow(/ENOSPC/);
  } finally {
    spy.mockRestore();
  }
  expect(fs.readdirSync(path.join(repo, 'objects', 'pack'))).toEqual([]);
});
