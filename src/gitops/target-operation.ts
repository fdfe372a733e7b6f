import { overridePatchOf, withTenantOverride, type WorkloadChange } from '../projects/workload-spec';
import { COMMIT_FAILURE, CommitRefused } from './commit-failure';
import { managedChanges, type OperationScope } from './commit-operation';
import type { LoadedProject } from './delivery-model';
import { readTree } from './git-plumbing';
import { renderAll } from './manifests';
import { patchOverrides, reloadProject } from './override-patch';
import { renderDigest } from './render-digest';

/**
 * What a release and a promotion share: changes set in some tenants' overrides of one environment, then those
 * targets' files regenerated and compared with the digest the caller validated.
 */
export interface TargetMoves {
  environment: string;
  moves: { tenant: string; changes: WorkloadChange[] }[];
  digest: string;
}

/** Each tenant's changes in its overrides of the environment (the same values again on a retry). */
export async function applyMoves<Op>(
  scope: OperationScope<Op>,
  loaded: LoadedProject,
  target: TargetMoves,
): Promise<LoadedProject> {
  for (const move of target.moves) {
    for (const change of move.changes) {
      await patchOverrides(scope.trx, loaded.project.id, change.workload, (overrides) =>
        withTenantOverride(overrides, move.tenant, target.environment, overridePatchOf(change)),
      );
    }
  }
  return reloadProject(scope);
}

/** The targets' files rendered again against the parent's tree; refused when they differ from what was validated. */
export async function movedChanges(loaded: LoadedProject, target: TargetMoves, repo: string, parent: string | null) {
  const tenants = new Set(target.moves.map((m) => m.tenant));
  const rendered = renderAll(loaded.model, (t) => tenants.has(t.tenant) && t.environment === target.environment);
  if (renderDigest(rendered) !== target.digest) {
    throw new CommitRefused(COMMIT_FAILURE.deliveryChanged, 'the target changed between validation and commit');
  }
  const dirs = [...tenants].flatMap((tenant) => [
    `tenants/${tenant}/${target.environment}/`,
    `applications/${tenant}/${target.environment}/`,
  ]);
  // Only the targets' folders are read (pathspecs), not the whole tree.
  const current = await readTree(repo, parent, dirs);
  return managedChanges(current, rendered, dirs);
}
