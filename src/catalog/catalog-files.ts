import { posix } from 'node:path';
import { parseYaml } from '../parse/bounded-parse';
import { InvalidInput } from '../errors';
import { checkRepositoryPath } from '../parse/repository-path';

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

/** Names kustomize reads as a folder's kustomization. */
export const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

/** The manifests of a bundle: its YAML files (other files, READMEs, are stored as they are). */
export function bundleManifests(files: Record<string, string>): string[] {
  return Object.keys(files).filter((p) => MANIFEST.test(p));
}

/** The kustomization at the root of a base, or null. */
export function rootKustomization(files: Record<string, string>): string | null {
  return KUSTOMIZATION_FILES.find((name) => Object.hasOwn(files, name)) ?? null;
}

/**
 * What keeps a base from reaching kustomize: no kustomization at its root, or a kustomization (at any depth) the
 * bounded parser refuses or that is not a mapping. kustomize itself then judges every reference (docs/registry.md).
 */
export function kustomizationProblems(files: Record<string, string>): StructureProblem[] {
  if (!rootKustomization(files)) return [{ file: 'kustomization.yaml', message: 'a base needs a kustomization.yaml' }];
  const problems: StructureProblem[] = [];
  for (const [file, text] of Object.entries(files)) {
    if (!KUSTOMIZATION_FILES.includes(file.slice(file.lastIndexOf('/') + 1))) continue;
    let doc: unknown;
    try {
      doc = parseYaml(text, file);
    } catch (err) {
      problems.push({ file, message: `not YAML: ${(err as Error).message}` });
      continue;
    }
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
      problems.push({ file, message: 'a kustomization is a YAML mapping' });
    else problems.push(...escapes(file, doc as Record<string, unknown>));
  }
  return problems;
}

/** Remote references: kustomize's sandbox refuses them (no git, no network), with its own message. */
const REMOTE = /^(?:[a-z][a-z0-9+.-]*:\/\/|git@|github\.com\/)/i;

/**
 * kustomize loads a folder outside the kustomization's own (`resources: [../x]`, as overlays do) when it holds a
 * kustomization: on the platform's disk that would be someone else's folder. A base's folders stay inside the base.
 */
function escapes(file: string, doc: Record<string, unknown>): StructureProblem[] {
  const dir = posix.dirname(file);
  return ['resources', 'bases', 'components'].flatMap((key) => {
    const entries = Array.isArray(doc[key]) ? (doc[key] as unknown[]) : [];
    return entries
      .filter((e): e is string => typeof e === 'string' && !REMOTE.test(e))
      .filter((e) => posix.isAbsolute(e) || posix.normalize(posix.join(dir, e)).startsWith('..'))
      .map((e) => ({ file, message: `${key}: ${JSON.stringify(e)} is outside the base` }));
  });
}
