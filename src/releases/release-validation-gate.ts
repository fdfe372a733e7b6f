import type { Db } from '../db/knex';
import { NotFound, Unprocessable } from '../errors';
import { loadProject } from '../gitops/delivery-model';
import { movedWorkloads } from '../gitops/target-operation';
import type { DeliveryValidation, FileValidationResult } from '../gitops/delivery-validation';
import type { WorkloadSources } from '../gitops/workload-sources';
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
 */
export async function refuseBlockedByValidation(
  deps: { db: Db; validation: ValidationEngine; publicUrl: string; sources: WorkloadSources },
  organizationId: string,
  projectId: string,
  target: Pick<ReleaseTarget, 'tenantSlug' | 'environment' | 'changes'>,
): Promise<void> {
  const changed = movedWorkloads([{ tenant: target.tenantSlug, changes: target.changes }]);
  const loaded = await loadProject(deps.db, organizationId, projectId, deps, changed);
  if (!loaded) throw new NotFound('project not found');
  const { validation } = validateRelease(deps.validation, loaded, target);
  if (!validation.blocked) return;
  throw new Unprocessable(`release blocked by ${validationBlockReason(validation)}`, {
    validation: validationView(validation),
  });
}
