import { Unprocessable } from '../errors';
import type { BuildLimits } from '../tools/kustomize-build';
import { ManifestRejected, type ValidationEngine, type ValidationResult } from '../validation';
import type { CatalogKind } from './catalog-repository';
import { bundleManifests, kustomizationProblems, rootKustomization, type StructureProblem } from './catalog-files';

/** A result of the upload's validation, with the file it concerns. */
export interface CatalogValidationResult extends ValidationResult {
  file: string;
}

export interface CatalogValidation {
  /** False when some result is an error: the upload is refused and nothing is stored. */
  valid: boolean;
  kubernetesVersion: string;
  /** What the engine validated: a bundle's manifest files, or `kustomize build` (the output of a base). */
  files: string[];
  summary: { errors: number; warnings: number };
  results: CatalogValidationResult[];
}

/**
 * `kustomize build` of a base's files for an organization in the sandbox (src/tools/kustomize-build.ts); fails with
 * Unprocessable (or 429/503 when the organization's or the process's renderers are busy).
 */
export type BaseBuilder = (organizationId: string, files: Record<string, string>) => Promise<string>;

/** The name results about a base's built objects carry as their file. */
export const BUILD_OUTPUT = 'kustomize build';

/** A base upload's build: half a minute, 4 MiB of output (a base of 2 MiB building to more is refused). */
export const BASE_BUILD_LIMITS: BuildLimits = { timeoutMs: 30_000, maxOutputBytes: 4 * 1024 * 1024 };

/** Results kept in a response at most (the summary counts all). */
const MAX_RESULTS = 1000;

/** What the engine validates: a bundle's YAML files, or what kustomize builds from a base. */
async function sourcesOf(
  kind: CatalogKind,
  files: Record<string, string>,
  build: (files: Record<string, string>) => Promise<string>,
): Promise<{ sources: Map<string, string>; problems: StructureProblem[] }> {
  if (kind === 'manifest-bundle')
    return { sources: new Map(bundleManifests(files).map((f) => [f, files[f]!])), problems: [] };
  const problems = kustomizationProblems(files);
  if (problems.length > 0) return { sources: new Map(), problems };
  const file = rootKustomization(files)!;
  try {
    const output = await build(files);
    if (output.trim() === '') return { sources: new Map(), problems: [{ file, message: 'the base builds no object' }] };
    return { sources: new Map([[BUILD_OUTPUT, output]]), problems: [] };
  } catch (err) {
    if (!(err instanceof Unprocessable)) throw err;
    return { sources: new Map(), problems: [{ file, message: err.message }] };
  }
}

/**
 * Validates an upload with the validation engine against `kubernetesVersion`: each YAML file of a bundle, or the
 * output of the real `kustomize build` of a base (a base kustomize cannot build is an error of its kustomization).
 * A manifest the engine refuses whole (hostile YAML) is an error of that file.
 */
export async function validateCatalogFiles(
  engine: ValidationEngine,
  kind: CatalogKind,
  files: Record<string, string>,
  kubernetesVersion: string,
  build: (files: Record<string, string>) => Promise<string>,
): Promise<CatalogValidation> {
  const { sources, problems } = await sourcesOf(kind, files, build);
  const all: CatalogValidationResult[] = problems.map((p) => ({ ...p, severity: 'error', path: '', resource: '' }));
  for (const [file, text] of sources) {
    try {
      const response = engine.validate(text, kubernetesVersion, { bestPractices: false });
      all.push(...response.results.map((r) => ({ ...r, file })));
    } catch (err) {
      if (!(err instanceof ManifestRejected)) throw err;
      all.push({ file, severity: 'error', message: err.message, path: '', resource: '' });
    }
  }
  const errors = all.filter((r) => r.severity === 'error').length;
  return {
    valid: errors === 0,
    kubernetesVersion,
    files: [...sources.keys()],
    summary: { errors, warnings: all.filter((r) => r.severity === 'warning').length },
    results: all.slice(0, MAX_RESULTS),
  };
}
