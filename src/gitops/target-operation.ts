import { overridePatchOf, withTenantOverride, type WorkloadChange } from '../projects/workload-spec';
import { COMMIT_FAILURE, CommitRefused } from './commit-failure';
import { managedChanges, type OperationScope } from './commit-operation';
import { readTree } from '../git/git-plumbing';
import { renderAll, targetsOf } from './manifests';
import { applicationPath, serviceDir, type Target } from '../delivery-layout/target-paths';
import type { LoadedProject } from './delivery-model';
import { patchOverrides, withPatchedWorkloads } from './override-patch';
import { renderDigest } from '../delivery-layout/render-digest';

/**
 * What a release and a promotion share: changes set in some tenants' overrides of one environment, then those
 * targets' files regenerated and compared with the digest the caller validated.
 */
export interface TargetMoves {
  environment: string;
  moves: { tenant: string; changes: WorkloadChange[] }[];
  digest: string;
}

/**
 * The workloads some moves change: all a release or promotion loads, renders, validates and commits, so its cost is
 * flat in project size (issue 46). Undefined (every workload) when a move changes nothing: a release without changes
 * deploys its whole target as it is.
 */
export function movedWorkloads(moves: TargetMoves['moves']): string[] | undefined {
  if (moves.some((m) => m.changes.length === 0)) return undefined;
  return [...new Set(moves.flatMap((m) => m.changes.map((c) => c.workload)))].sort();
}

/** The Applications some moves render: the changed workloads (or every one) of the moved tenants in the environment. */
export function movedTargets(environment: string, moves: TargetMoves['moves']): (t: Target) => boolean {
  const tenants = new Set(moves.map((m) => m.tenant));
  const names = movedWorkloads(moves);
  const workloads = names && new Set(names);
  return (t) => t.environment === environment && tenants.has(t.tenant) && (!workloads || workloads.has(t.service));
}

/** Each tenant's changes in its overrides of the environment (the same values again on a retry). */
export async function applyMoves<Op>(
  scope: OperationScope<Op>,
  loaded: LoadedProject,
  target: TargetMoves,
): Promise<LoadedProject> {
  const patched = [];
  for (const move of target.moves) {
    for (const change of move.changes) {
      patched.push(
        await patchOverrides(scope.trx, loaded.project.id, change.workload, (overrides) =>
          withTenantOverride(overrides, move.tenant, target.environment, overridePatchOf(change)),
        ),
      );
    }
  }
  return withPatchedWorkloads(scope, loaded, patched, movedWorkloads(target.moves));
}

/**
 * The moved Applications' files rendered again against the parent's tree; refused when they differ from what was
 * validated. Only their folders and Application files are read (pathspecs), not the whole tree.
 */
export async function movedChanges(loaded: LoadedProject, target: TargetMoves, repo: string, parent: string | null) {
  const picked = movedTargets(target.environment, target.moves);
  const rendered = renderAll(loaded.model, picked);
  if (renderDigest(rendered) !== target.digest) {
    throw new CommitRefused(COMMIT_FAILURE.deliveryChanged, 'the target changed between validation and commit');
  }
  const paths = targetsOf(loaded.model)
    .filter(picked)
    .flatMap((t) => [`${serviceDir(t)}/`, applicationPath(t)]);
  const current = await readTree(repo, parent, paths);
  return managedChanges(current, rendered, paths);
}
