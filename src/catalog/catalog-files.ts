import { parseYaml } from '../parse/bounded-parse';
import { InvalidInput } from '../errors';
import { checkRepositoryPath } from '../parse/repository-path';
import type { CatalogKind } from './catalog-repository';
import { KUSTOMIZATION_FILES, referenceProblems } from './kustomization-references';

/** Bounds of one upload (the request schema also bounds the count and each file; the body limit bounds the total). */
export const CATALOG_MAX_FILES = 200;
export const CATALOG_MAX_TOTAL_BYTES = 2 * 1024 * 1024;

const MANIFEST = /\.ya?ml$/;

/** A path inside the artifact follows the repository path rule: anything else answers 400 naming the path. */
function checkPath(path: string): void {
  checkRepositoryPath(path, 'file path');
}

/** Checks the paths and the bounds of an upload; answers its size in bytes. */
export function checkFiles(files: Record<string, string>): number {
  const paths = Object.keys(files);
  if (paths.length === 0) throw new InvalidInput('files must hold at least one file');
  if (paths.length > CATALOG_MAX_FILES) throw new InvalidInput(`at most ${CATALOG_MAX_FILES} files`);
  paths.forEach(checkPath);
  const total = Object.values(files).reduce((sum, content) => sum + Buffer.byteLength(content, 'utf8'), 0);
  if (total > CATALOG_MAX_TOTAL_BYTES) throw new InvalidInput(`files hold at most ${CATALOG_MAX_TOTAL_BYTES} bytes`);
  return total;
}

/** A problem of the artifact's structure, reported beside the validation engine's results. */
export interface StructureProblem {
  file: string;
  message: string;
}

/** What to validate: the manifest files, and the structural problems found on the way. */
export interface ManifestSelection {
  manifests: string[];
  problems: StructureProblem[];
}

/**
 * The manifests of a bundle are its YAML files. Those of a kustomize base are the files its kustomization's
 * `resources` name, each of which must be a file of the base (no directory, no remote URL); other files (patches,
 * generator inputs) are stored unvalidated.
 */
export function manifestsOf(kind: CatalogKind, files: Record<string, string>): ManifestSelection {
  if (kind === 'manifest-bundle') {
    return { manifests: Object.keys(files).filter((p) => MANIFEST.test(p)), problems: [] };
  }
  const file = KUSTOMIZATION_FILES.find((name) => Object.hasOwn(files, name));
  if (!file)
    return { manifests: [], problems: [{ file: 'kustomization.yaml', message: 'a base needs a kustomization.yaml' }] };
  let doc: unknown;
  try {
    doc = parseYaml(files[file]!, file);
  } catch (err) {
    return { manifests: [], problems: [{ file, message: `not YAML: ${(err as Error).message}` }] };
  }
  const resources = (doc as { resources?: unknown } | null)?.resources ?? [];
  if (typeof doc !== 'object' || doc === null || !Array.isArray(resources)) {
    return { manifests: [], problems: [{ file, message: 'a mapping whose resources is a list is expected' }] };
  }
  const manifests: string[] = [];
  const problems: StructureProblem[] = [];
  for (const entry of resources as unknown[]) {
    const path = typeof entry === 'string' ? entry.replace(/^\.\//, '') : '';
    if (path !== file && Object.hasOwn(files, path)) manifests.push(path);
    else problems.push({ file, message: `resources: ${JSON.stringify(entry)} is not a file of the base` });
  }
  problems.push(...referenceProblems(files, file, doc as Record<string, unknown>, manifests));
  return { manifests, problems };
}
