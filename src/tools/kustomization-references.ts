import { posix } from 'node:path';
import { parseYamlDocumentsMerged } from '../parse/bounded-parse';
import { remoteReference } from './remote-reference';

/**
 * The one reader of kustomization files (docs/security.md A-KZ2): it reads a kustomization the way kustomize v5 does
 * and answers every file or folder it names, so that one rule can hold all of them inside the base.
 *
 * kustomize's semantics, checked against the bundled kustomize v5.4.2 (`kubectl kustomize`, issue 42 note):
 * - Field names match case-insensitively: `Kustomization.Unmarshal` decodes with sigs.k8s.io/yaml, i.e. Go's
 *   encoding/json, whose field matching folds case with Unicode simple folding, so `Resources`, `RESOURCES` and
 *   `reſources` (U+017F folds to `s`) all load `resources`.
 * - YAML merge keys are resolved (go-yaml underneath): `<<: {resources: [../x]}` loads `../x`.
 * - Folders outside the kustomization's own load (its root-only restriction applies to files, not to folders holding
 *   a kustomization): `resources`, `bases`, `components`, and `generators` / `transformers` / `validators` (whose
 *   folder's output become plugin configurations) all reached a folder beside the base; files outside are refused by
 *   kustomize itself today, but are checked too so that no loader setting makes them reachable.
 */

/** A reference a kustomization makes: the file holding it, the field (as kustomize names it) and the value. */
export interface KustomizationReference {
  file: string;
  field: string;
  reference: string;
  /** The folder the reference is relative to: the kustomization's. */
  dir: string;
}

/** Why a reference may not be used, naming it; the message a 422 carries. */
export interface ReferenceProblem {
  file: string;
  message: string;
}

/** Names kustomize reads as a folder's kustomization. */
export const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

/** Top-level fields whose entries are each a file, a folder or a URL (or, where kustomize allows it, inline YAML). */
const LIST_FIELDS = [
  'resources',
  'bases',
  'components',
  'crds',
  'configurations',
  'generators',
  'transformers',
  'validators',
  'patchesStrategicMerge',
];

/** Fields holding plugin configurations, by path or inline; the configurations name files in turn. */
const PLUGIN_FIELDS = new Set(['generators', 'transformers', 'validators']);

/**
 * Fields at any depth that name a file or folder: `patches[].path`, `patchesJson6902[].path`, `openapi.path`,
 * `replacements[].path`, generator `files` (`key=path`), `envs` and `env`, the helm fields (refused anyway without
 * `--enable-helm`) and a chart `repo` (a URL).
 */
const NESTED_FIELDS = [
  'path',
  'files',
  'envs',
  'env',
  'valuesFile',
  'additionalValuesFiles',
  'chartHome',
  'configHome',
  'repo',
];

/**
 * A field name as Go's encoding/json compares it: case folded, with the two non-ASCII letters whose simple case
 * folding reaches ASCII (`ſ` U+017F to `s`, the Kelvin sign U+212A to `k`, which toLowerCase already maps).
 */
const fold = (name: string) => name.replaceAll('\u017f', 's').toLowerCase();
const byFolded = (names: string[]) => new Map(names.map((n) => [fold(n), n]));
const LISTS = byFolded(LIST_FIELDS);
const NESTED = byFolded(NESTED_FIELDS);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((e): e is string => typeof e === 'string') : [];

/** An entry kustomize takes as inline YAML rather than a path (plugin configurations and patches may be inline). */
const isInline = (entry: string) => entry.includes('\n');

/** `files: [key=path]` names `path`. */
const pathOf = (field: string, entry: string) => (field === 'files' ? entry.slice(entry.indexOf('=') + 1) : entry);

/** The references made by nested fields anywhere in `value`, walked without recursion (depth is bounded by parse). */
function nestedReferences(value: unknown, file: string, dir: string): KustomizationReference[] {
  const out: KustomizationReference[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...(node as unknown[]));
    if (!isRecord(node)) continue;
    for (const [key, child] of Object.entries(node)) {
      const field = NESTED.get(fold(key));
      if (field) out.push(...strings(child).map((e) => ({ file, field, reference: pathOf(field, e), dir })));
      stack.push(child);
    }
  }
  return out;
}

/** Every reference of one kustomization (already parsed), the configurations it names read from `files`. */
function referencesOf(file: string, doc: Record<string, unknown>, files: Record<string, string>) {
  const dir = posix.dirname(file);
  const out: KustomizationReference[] = [];
  for (const [key, value] of Object.entries(doc)) {
    const field = LISTS.get(fold(key));
    if (!field) continue;
    for (const entry of strings(value)) {
      if (!isInline(entry)) out.push({ file, field, reference: entry, dir });
      if (!PLUGIN_FIELDS.has(field)) continue;
      if (isInline(entry)) {
        out.push(...parseYamlDocumentsMerged(entry, `${file} ${field}`).flatMap((c) => nestedReferences(c, file, dir)));
        continue;
      }
      // A configuration file of the base names paths relative to the kustomization (kustomize's loader root).
      const config = posix.normalize(posix.join(dir, entry));
      if (!Object.hasOwn(files, config)) continue;
      const docs = parseYamlDocumentsMerged(files[config]!, config);
      out.push(...docs.flatMap((c) => nestedReferences(c, config, dir)));
    }
  }
  out.push(...nestedReferences(doc, file, dir));
  return out;
}

/** Whether a file is a kustomization (any folder of a base may hold one). */
export const isKustomization = (file: string) => KUSTOMIZATION_FILES.includes(posix.basename(file));

/**
 * Every reference the kustomizations of `files` make, read as kustomize reads them. A kustomization that is not
 * readable YAML throws the bounded parser's 400 (`ParseRefused`); one that is not a mapping makes no reference.
 */
export function kustomizationReferences(files: Record<string, string>): KustomizationReference[] {
  return Object.keys(files)
    .filter(isKustomization)
    .flatMap((file) => {
      const [doc] = parseYamlDocumentsMerged(files[file]!, file);
      return isRecord(doc) ? referencesOf(file, doc, files) : [];
    });
}

/** Why one reference leaves the base (a remote reference, an absolute path, `..` above it), or null. */
export function referenceProblem(ref: KustomizationReference): string | null {
  const shown = `${ref.field}: ${JSON.stringify(ref.reference)}`;
  if (remoteReference(ref.reference))
    return `${shown} is a remote reference: renderers have no network, a base holds its own files`;
  const inside = posix.normalize(posix.join(ref.dir, ref.reference));
  if (posix.isAbsolute(ref.reference) || inside === '..' || inside.startsWith('../'))
    return `${shown} is outside the base`;
  return null;
}

/** The problems of every reference of a base's kustomizations (empty: kustomize may build it). */
export function referenceProblems(files: Record<string, string>): ReferenceProblem[] {
  return kustomizationReferences(files).flatMap((ref) => {
    const message = referenceProblem(ref);
    return message ? [{ file: ref.file, message }] : [];
  });
}
