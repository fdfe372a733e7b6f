import { InvalidInput } from '../errors';
import type { DeliveryModel } from '../gitops/manifests';
import { overridePatchOf, withTenantOverride, type WorkloadChange } from '../projects/workload-spec';

/**
 * The project's delivery model with a release's changes set in the tenant-and-environment overrides: what the
 * release validates, and exactly what the commit path writes (it applies the same patch to the stored overrides).
 */
export function withReleaseChanges(
  model: DeliveryModel,
  tenant: string,
  environment: string,
  changes: WorkloadChange[],
): DeliveryModel {
  const byWorkload = new Map(changes.map((c) => [c.workload, c]));
  return {
    ...model,
    workloads: model.workloads.map((w) => {
      const change = byWorkload.get(w.name);
      if (!change) return w;
      return { ...w, overrides: withTenantOverride(w.overrides, tenant, environment, overridePatchOf(change)) };
    }),
  };
}

/** A change names an existing workload, at most once, and changes something. */
export function checkReleaseChanges(workloadNames: string[], changes: WorkloadChange[]): void {
  const known = new Set(workloadNames);
  const seen = new Set<string>();
  for (const change of changes) {
    if (!known.has(change.workload)) throw new InvalidInput(`workload ${change.workload} not found in this project`);
    if (seen.has(change.workload)) throw new InvalidInput(`workload ${change.workload} is changed twice`);
    seen.add(change.workload);
    if (change.tag === undefined && change.replicas === undefined && change.variables === undefined) {
      throw new InvalidInput(`the change of workload ${change.workload} changes nothing`);
    }
  }
}
