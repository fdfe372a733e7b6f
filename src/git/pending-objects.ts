import { readObject, type GitObject } from './object-reader';
import { bytesOf, objectId, WrittenElsewhere, type ObjectStore } from './object-writer';
import { writePack, type PackObject } from './pack-writer';

/**
 * The objects a commit pass built and has not written yet (issue 46): kept in memory, read back from there by the
 * pass's later commits, and written as one pack (`flush`) before anything outside this process may need them: before
 * the branch moves, and before a read through a `git` process or by path (a release's targets, the deployed-state
 * record, a fast-import built on the pass's last commit). A pass that fails writes none of them.
 */
export class PendingObjects implements ObjectStore {
  private readonly objects = new Map<string, PackObject>();
  /** Whether a flush wrote a pack (the repository's pack count grew). */
  packed = false;
  private readonly elsewhere = new WrittenElsewhere();

  constructor(readonly repo: string) {}

  /** Keeps the object; returns its id (the one git gives it). */
  put(type: PackObject['type'], text: Buffer | string): string {
    const body = bytesOf(text);
    const sha = objectId(type, body);
    if (!this.objects.has(sha)) this.objects.set(sha, { sha, type, body });
    return sha;
  }

  /** The object, from memory when this pass built it, else from the repository. */
  read(sha: string): Promise<GitObject | null> {
    const kept = this.objects.get(sha);
    return kept ? Promise.resolve(kept) : readObject(this.repo, sha);
  }

  /** Writes the kept objects as one pack; afterwards they are read from the repository like any other. */
  async flush(): Promise<void> {
    if (this.objects.size > 0) {
      writePack(this.repo, [...this.objects.values()]);
      this.objects.clear();
      this.packed = true;
    }
    await this.elsewhere.settled();
  }

  include(written: Promise<void>): void {
    this.elsewhere.add(written);
  }
}
