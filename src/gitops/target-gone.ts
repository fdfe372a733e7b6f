import { COMMIT_FAILURE, CommitRefused } from './commit-failure';
import type { LoadedProject } from './delivery-model';

/**
 * A release or promotion whose environment, tenant or workload left the project commits nothing (issue 26): rendering a gone
 * target gives no files, which would delete the target's folders. Refused with TargetGone; the workflow ends Failed.
 */
export function refuseGoneTarget(
  loaded: LoadedProject,
  target: { environments: string[]; tenants: string[]; workloads: string[] },
): void {
  const environments = new Set(loaded.environments.map((e) => e.environment));
  const tenants = new Set(loaded.tenants.map((t) => t.slug));
  const gone = target.environments.find((e) => !environments.has(e));
  if (gone) throw new CommitRefused(COMMIT_FAILURE.targetGone, `environment ${gone} is no longer part of the project`);
  const tenant = target.tenants.find((t) => !tenants.has(t));
  if (tenant) throw new CommitRefused(COMMIT_FAILURE.targetGone, `tenant ${tenant} is no longer part of the project`);
  const workloads = new Set(loaded.workloads.map((w) => w.name));
  const workload = target.workloads.find((w) => !workloads.has(w));
  if (workload)
    throw new CommitRefused(COMMIT_FAILURE.targetGone, `workload ${workload} is no longer part of the project`);
}
