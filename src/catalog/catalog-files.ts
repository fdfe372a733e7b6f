import { parseYamlDocumentsMerged } from '../parse/bounded-parse';
import { InvalidInput } from '../errors';
import { checkRepositoryPath } from '../parse/repository-path';
import { isKustomization, KUSTOMIZATION_FILES, referenceProblems } from '../tools/kustomization-references';

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

/** The manifests of a bundle: its YAML files (other files, READMEs, are stored as they are). */
export function bundleManifests(files: Record<string, string>): string[] {
  return Object.keys(files).filter((p) => MANIFEST.test(p));
}

/** The kustomization at the root of a base, or null. */
export function rootKustomization(files: Record<string, string>): string | null {
  return KUSTOMIZATION_FILES.find((name) => Object.hasOwn(files, name)) ?? null;
}

/**
 * What keeps a base from reaching kustomize: no kustomization at its root, a kustomization (at any depth) the bounded
 * parser refuses or that is not a mapping, or a reference the one kustomization reader finds leaving the base (a
 * remote reference or a path outside it, src/tools/kustomization-references.ts). kustomize judges the rest.
 */
export function kustomizationProblems(files: Record<string, string>): StructureProblem[] {
  if (!rootKustomization(files)) return [{ file: 'kustomization.yaml', message: 'a base needs a kustomization.yaml' }];
  const problems: StructureProblem[] = [];
  for (const file of Object.keys(files).filter(isKustomization)) {
    try {
      const [doc] = parseYamlDocumentsMerged(files[file]!, file);
      if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
        problems.push({ file, message: 'a kustomization is a YAML mapping' });
    } catch (err) {
      problems.push({ file, message: `not YAML: ${(err as Error).message}` });
    }
  }
  if (problems.length > 0) return problems;
  try {
    return referenceProblems(files);
  } catch (err) {
    // A plugin configuration a kustomization names that is not readable YAML.
    return [{ file: rootKustomization(files)!, message: `not YAML: ${(err as Error).message}` }];
  }
}
