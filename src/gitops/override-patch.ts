import type { Tx } from '../db/knex';
import { findWorkload, updateWorkload } from '../projects/workload-repository';
import type { WorkloadOverrides } from '../projects/workload-spec';
import { COMMIT_FAILURE, CommitRefused } from './commit-failure';
import type { OperationScope } from './commit-operation';
import { loadProject, type LoadedProject } from './delivery-model';

/** Rewrites one workload's overrides in the commit's transaction (idempotent when `patch` sets values). */
export async function patchOverrides(
  trx: Tx,
  projectId: string,
  name: string,
  patch: (overrides: WorkloadOverrides) => WorkloadOverrides,
): Promise<void> {
  const workload = await findWorkload(trx, projectId, name, true);
  if (!workload) throw new CommitRefused(COMMIT_FAILURE.badTarget, `workload ${name} not found`);
  await updateWorkload(trx, workload.id, { overrides: patch(workload.overrides) });
}

/** The project as the commit's transaction now sees it (after an operation patched its overrides). */
export async function reloadProject<Op>(scope: OperationScope<Op>): Promise<LoadedProject> {
  const { trx, req, ctx } = scope;
  const reloaded = await loadProject(trx, req.organizationId, req.projectId, ctx);
  if (!reloaded) throw new CommitRefused(COMMIT_FAILURE.projectGone, 'project not found');
  return reloaded;
}
