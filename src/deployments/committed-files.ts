import type { FileChanges } from '../git/commit-writer';
import { serviceDir, type Target } from '../delivery-layout/target-paths';
import type { RenderKnown } from './application-digest';

/** The Applications a commit changed, and the files directly in their directories after the commit. */
export interface CommittedFiles {
  targets: Target[];
  files: Map<string, string>;
  /**
   * What the render the changes came from knows of them (FileChanges.objects and directoryDigest): the objects of
   * generated files, read instead of parsing their text, and its directories' digests.
   */
  known?: RenderKnown;
}

const dirOf = (file: string) => file.slice(0, file.lastIndexOf('/') + 1);

/**
 * What a commit changed, from the changes it was built from and the parent's files they were computed from, without
 * git: null when the changes carry no such files, or touch an Application directory outside the folders they hold.
 * A path counts as changed when its content differs from the parent's (a write) or it existed (a delete), as git's
 * diff of the commit would say.
 */
export function filesAfter(changes: FileChanges, applications: (paths: string[]) => Target[]): CommittedFiles | null {
  const { base } = changes;
  if (!base) return null;
  const touched = applications([...changes.writes.keys(), ...changes.deletes]);
  const covered = (t: Target) => base.folders.some((folder) => `${serviceDir(t)}/`.startsWith(folder));
  if (!touched.every(covered)) return null;
  const deletes = new Set(changes.deletes.filter((file) => !changes.writes.has(file)));
  const changed = [
    ...[...changes.writes].filter(([file, text]) => base.files.get(file) !== text).map(([file]) => file),
    ...[...deletes].filter((file) => base.files.has(file)),
  ];
  const targets = applications(changed);
  const dirs = new Set(targets.map((t) => `${serviceDir(t)}/`));
  const files = new Map<string, string>();
  for (const [file, text] of base.files) if (dirs.has(dirOf(file)) && !deletes.has(file)) files.set(file, text);
  for (const [file, text] of changes.writes) if (dirs.has(dirOf(file))) files.set(file, text);
  const { objects, directoryDigest } = changes;
  return { targets, files, known: { objects, directoryDigest } };
}
