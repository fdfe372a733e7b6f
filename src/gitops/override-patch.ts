import type { Tx } from '../db/knex';
import type { StatementSink } from '../db/statement-batch';
import { findWorkload, updateOverridesIn, updateWorkload, type Workload } from '../projects/workload-repository';
import type { WorkloadOverrides } from '../projects/workload-spec';
import { COMMIT_FAILURE, CommitRefused } from './commit-failure';
import type { OperationScope } from './commit-operation';
import { loadProject, modelWorkloadOf, type LoadedProject } from './delivery-model';

/**
 * Rewrites one workload's overrides in the commit's transaction (idempotent when `patch` sets values); returns the
 * workload as it now is (its row locked until the transaction ends).
 */
export async function patchOverrides(
  trx: Tx,
  projectId: string,
  name: string,
  patch: (overrides: WorkloadOverrides) => WorkloadOverrides,
): Promise<Workload> {
  const workload = await findWorkload(trx, projectId, name, true);
  if (!workload) throw new CommitRefused(COMMIT_FAILURE.badTarget, `workload ${name} not found`);
  const overrides = patch(workload.overrides);
  await updateWorkload(trx, workload.id, { overrides });
  return { ...workload, overrides };
}

/**
 * `patchOverrides` of a workload the transaction already read locked for update, in the pass's batch (issue 46: with
 * the commit's other rows): what reads the workload again in this write sends the batch first (reloadProject).
 */
export function patchLockedOverrides(
  batch: StatementSink,
  workload: Workload,
  patch: (overrides: WorkloadOverrides) => WorkloadOverrides,
): Workload {
  const overrides = patch(workload.overrides);
  updateOverridesIn(batch, workload.id, overrides);
  return { ...workload, overrides };
}

/** The project with only the workloads `names` lists (all when undefined), in the commit's transaction. */
export function loadWorkloads<Op>({ trx, req, ctx }: OperationScope<Op>, names: readonly string[] | undefined) {
  return loadProject(trx, req.organizationId, req.projectId, ctx, names);
}

/** The project (or those of its workloads `names` lists) as the commit's transaction now sees it. */
export async function reloadProject<Op>(scope: OperationScope<Op>, names?: readonly string[]): Promise<LoadedProject> {
  const { trx, req, ctx } = scope;
  await scope.batch.send(trx);
  const reloaded = await loadProject(trx, req.organizationId, req.projectId, ctx, names);
  if (!reloaded) throw new CommitRefused(COMMIT_FAILURE.projectGone, 'project not found');
  return reloaded;
}

/**
 * `loaded` with these workloads as patched (no second load of the project); a workload rendered from a chart or a
 * kustomize base renders again from its new values, so then the project (or the workloads `names` lists) is loaded
 * again, as it is when a patched workload was not loaded.
 */
export async function withPatchedWorkloads<Op>(
  scope: OperationScope<Op>,
  loaded: LoadedProject,
  patched: Workload[],
  names?: readonly string[],
): Promise<LoadedProject> {
  const loadedNames = new Set(loaded.workloads.map((w) => w.name));
  if (patched.some((w) => w.source || !loadedNames.has(w.name))) return reloadProject(scope, names);
  const byName = new Map(patched.map((w) => [w.name, w]));
  return {
    ...loaded,
    workloads: loaded.workloads.map((w) => byName.get(w.name) ?? w),
    model: {
      ...loaded.model,
      workloads: loaded.model.workloads.map((w) => {
        const now = byName.get(w.name);
        return now ? modelWorkloadOf(now) : w;
      }),
    },
  };
}
