import { parseYaml } from '../parse/bounded-parse';
import { Conflict, InvalidInput } from '../errors';
import { serviceDir } from '../delivery-layout/target-paths';
import type { WorkloadChange } from '../projects/workload-spec';
import type { ReleaseRow } from './release-repository';

type Doc = {
  spec?: { replicas?: unknown; template?: { spec?: { containers?: { image?: unknown }[] } } };
  data?: unknown;
};

/** The tag of an image reference (`registry:5000/repo/name:tag`): after the last colon of its last path segment. */
function tagOf(image: string): string | null {
  const name = image.slice(image.lastIndexOf('/') + 1).split('@')[0] ?? '';
  const colon = name.lastIndexOf(':');
  return colon < 0 ? null : name.slice(colon + 1);
}

/**
 * What each workload ran in one tenant and environment at a commit, read back from its generated files: the tag,
 * replicas and variables a rollback sets again. Workloads without files at that commit are left out.
 */
export function valuesAt(
  files: Map<string, string>,
  tenant: string,
  environment: string,
  workloads: string[],
): WorkloadChange[] {
  const changes: WorkloadChange[] = [];
  for (const workload of workloads) {
    const dir = serviceDir({ tenant, environment, service: workload });
    const deployment = files.get(`${dir}/deployment.yaml`);
    if (deployment === undefined) continue;
    const doc = parseYaml(deployment, `${dir}/deployment.yaml`) as Doc;
    const image = doc.spec?.template?.spec?.containers?.[0]?.image;
    const change: WorkloadChange = { workload };
    const tag = typeof image === 'string' ? tagOf(image) : null;
    if (tag) change.tag = tag;
    if (typeof doc.spec?.replicas === 'number') change.replicas = doc.spec.replicas;
    const config = files.get(`${dir}/configmap.yaml`);
    const data = config === undefined ? undefined : (parseYaml(config, `${dir}/configmap.yaml`) as Doc).data;
    if (data && typeof data === 'object') change.variables = data as Record<string, string>;
    changes.push(change);
  }
  return changes;
}

/**
 * The release a rollback of a target restores: the one asked for (a Healthy, committed release of that target), or
 * the latest Healthy one before what the target runs now (its latest deployed release).
 */
export function rollbackPoint(history: ReleaseRow[], releaseId: string | undefined): ReleaseRow {
  if (releaseId !== undefined) {
    const chosen = history.find((r) => r.id === releaseId);
    if (!chosen) throw new InvalidInput('releaseId is not a release of this tenant and environment');
    if (chosen.status !== 'Healthy' || chosen.commit_sha === null) {
      throw new Conflict(`release ${releaseId} is ${chosen.status}; a rollback restores a Healthy release`);
    }
    return chosen;
  }
  // Newest first: skip what runs now, take the first Healthy one before it.
  const current = history.findIndex((r) => r.commit_sha !== null || r.status === 'Failed');
  const point = history.slice(current + 1).find((r) => r.status === 'Healthy' && r.commit_sha !== null);
  if (current < 0 || !point)
    throw new Conflict('no earlier Healthy release of this tenant and environment to roll back to');
  return point;
}
