import { parseYamlDocuments } from '../parse/bounded-parse';
import type { StructureProblem } from './catalog-files';

export const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

type Kustomization = Record<string, unknown>;

const entries = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);
const clean = (path: string) => path.replace(/^\.\//, '').replace(/\/$/, '');

/** `kind/name` of every object in the resource files (files the engine cannot read are its to report). */
function resourcesOf(files: Record<string, string>, manifests: string[]): { kind?: unknown; name?: unknown }[] {
  const out: { kind?: unknown; name?: unknown }[] = [];
  for (const file of manifests) {
    try {
      for (const doc of parseYamlDocuments(files[file] ?? '', file) as {
        kind?: unknown;
        metadata?: { name?: unknown };
      }[]) {
        if (doc && typeof doc === 'object') out.push({ kind: doc.kind, name: doc.metadata?.name });
      }
    } catch {
      // reported by the validation engine
    }
  }
  return out;
}

/**
 * What a kustomization names beside its `resources`, checked against the files of the base: `bases` and `components`
 * are directories of the base holding a kustomization; `patches[].path`, `patchesStrategicMerge` and
 * `patchesJson6902[].path` are files of the base; a patch `target` (kind and/or name) selects at least one resource.
 */
export function referenceProblems(
  files: Record<string, string>,
  kustomizationFile: string,
  k: Kustomization,
  manifests: string[],
): StructureProblem[] {
  const problems: StructureProblem[] = [];
  const problem = (field: string, entry: unknown, what: string) =>
    problems.push({ file: kustomizationFile, message: `${field}: ${JSON.stringify(entry)} ${what}` });
  const isDirectory = (entry: unknown) =>
    typeof entry === 'string' &&
    !entry.includes('..') &&
    KUSTOMIZATION_FILES.some((name) => Object.hasOwn(files, `${clean(entry)}/${name}`));
  const isFile = (entry: unknown) => typeof entry === 'string' && Object.hasOwn(files, clean(entry));

  for (const field of ['bases', 'components']) {
    for (const entry of entries(k[field])) {
      if (!isDirectory(entry)) problem(field, entry, 'is not a directory of the base holding a kustomization');
    }
  }
  for (const entry of entries(k.patchesStrategicMerge)) {
    // An inline patch (a YAML document in the list) needs no file.
    if (typeof entry === 'string' && !entry.includes('\n') && !isFile(entry)) {
      problem('patchesStrategicMerge', entry, 'is not a file of the base');
    }
  }
  const resources = resourcesOf(files, manifests);
  for (const field of ['patches', 'patchesJson6902']) {
    for (const entry of entries(k[field])) {
      const patch = (entry ?? {}) as { path?: unknown; patch?: unknown; target?: { kind?: unknown; name?: unknown } };
      if (typeof patch !== 'object' || (patch.path === undefined && patch.patch === undefined)) {
        problem(field, entry, 'needs a path or an inline patch');
        continue;
      }
      if (patch.path !== undefined && !isFile(patch.path)) problem(field, patch.path, 'is not a file of the base');
      const target = patch.target;
      if (target && typeof target === 'object') {
        const selects = resources.some(
          (r) =>
            (target.kind === undefined || target.kind === r.kind) &&
            (target.name === undefined || target.name === r.name),
        );
        if (!selects) problem(`${field} target`, target, 'selects no resource of the base');
      }
    }
  }
  return problems;
}
