import { Unprocessable } from '../errors';
import type { LoadedProject } from '../gitops/delivery-model';
import type { DeliveryValidation, FileValidationResult } from '../gitops/delivery-validation';
import type { ValidationEngine } from '../validation';
import { validateRelease, validationBlockReason, type ReleaseTarget } from './release-evaluation';

/** Validation results grouped by the resource (file and `Kind/Name`) they belong to. */
function byResource(results: FileValidationResult[]) {
  const groups = new Map<string, { file: string; resource: string; results: Omit<FileValidationResult, 'file'>[] }>();
  for (const { file, ...result } of results) {
    const key = `${file}\u0000${result.resource}`;
    const group = groups.get(key) ?? { file, resource: result.resource, results: [] };
    group.results.push(result);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The validation result as the preview shows it and a refused creation answers it: per resource. */
export function validationView(validation: DeliveryValidation) {
  return {
    summary: validation.summary,
    blocked: validation.blocked,
    policy: validation.policy,
    resources: byResource(validation.results),
  };
}

/**
 * Release creation is blocked when validation errors exist (spec: `validation.errors = block`, the default; likewise
 * deprecations under `validation.deprecations = block`): 422 with the validation result, and nothing is created (no
 * row, no workflow, no audit entry). Under `warn` the release is created and its details show the results. The
 * release's prepare activity checks again, so a project changed after this answer still cannot commit a blocked one.
 * `loaded` holds at least the workloads the release changes (the create call loads them once for this and its versions).
 */
export function refuseBlockedByValidation(
  engine: ValidationEngine,
  loaded: LoadedProject,
  target: Pick<ReleaseTarget, 'tenantSlug' | 'environment' | 'changes'>,
): void {
  const { validation } = validateRelease(engine, loaded, target);
  if (!validation.blocked) return;
  throw new Unprocessable(`release blocked by ${validationBlockReason(validation)}`, {
    validation: validationView(validation),
  });
}
