import { versionSummary, versionsText, type VersionChange } from '../deployments/version-change';
import type { DeliveryModel } from '../gitops/manifests';
import { effectiveSpec, type WorkloadChange } from '../projects/workload-spec';

/** A version change as a release row records it; its direction is computed when read (`versionSummary`). */
export type ReleaseVersion = Omit<VersionChange, 'direction'>;

/**
 * What each image change of a release or rollback moves, current -> proposed: the tag the project's model gives the
 * service in the target now (what the repository holds) and the tag the change sets. Changes without a tag (replicas,
 * variables) move no version and are left out.
 */
export function releaseVersions(
  model: DeliveryModel,
  tenant: string,
  environment: string,
  changes: WorkloadChange[],
): ReleaseVersion[] {
  return changes.flatMap((c) => {
    const workload = model.workloads.find((w) => w.name === c.workload);
    if (!workload || c.tag === undefined) return [];
    const now = effectiveSpec(workload.spec, workload.overrides, tenant, environment).image.tag;
    return [{ tenant, workload: c.workload, from: now, to: c.tag }];
  });
}

/**
 * The versions as an audit entry and its event (notifications) carry them: `versions` in the one text form
 * (`acme/web 1.0.0 -> 1.1.0`, current -> proposed) and `downgrade`; nothing when the release moves no version.
 */
export function versionFacts(versions: ReleaseVersion[] | null): { versions?: string; downgrade?: boolean } {
  if (!versions || versions.length === 0) return {};
  const summary = versionSummary(versions);
  return { versions: versionsText(summary.versions), downgrade: summary.downgrade };
}
