import { ManifestRejected, type ValidationEngine, type ValidationResult } from '../validation';
import type { CatalogKind } from './catalog-repository';
import { manifestsOf } from './catalog-files';

/** A result of the upload's validation, with the file it concerns. */
export interface CatalogValidationResult extends ValidationResult {
  file: string;
}

export interface CatalogValidation {
  /** False when some result is an error: the upload is refused and nothing is stored. */
  valid: boolean;
  kubernetesVersion: string;
  /** Manifest files the engine validated. */
  files: string[];
  summary: { errors: number; warnings: number };
  results: CatalogValidationResult[];
}

/** Results kept in a response at most (the summary counts all). */
const MAX_RESULTS = 1000;

/**
 * Validates an upload: its structure (a base's kustomization and resources) and each manifest file with the validation
 * engine against `kubernetesVersion`. A manifest the engine refuses whole (hostile YAML) is an error of that file.
 */
export function validateCatalogFiles(
  engine: ValidationEngine,
  kind: CatalogKind,
  files: Record<string, string>,
  kubernetesVersion: string,
): CatalogValidation {
  const { manifests, problems } = manifestsOf(kind, files);
  const all: CatalogValidationResult[] = problems.map((p) => ({ ...p, severity: 'error', path: '', resource: '' }));
  for (const file of manifests) {
    try {
      const response = engine.validate(files[file]!, kubernetesVersion, { bestPractices: false });
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
    files: manifests,
    summary: { errors, warnings: all.filter((r) => r.severity === 'warning').length },
    results: all.slice(0, MAX_RESULTS),
  };
}
