import { parseYaml } from '../parse/bounded-parse';
import { serviceDir } from '../delivery-layout/target-paths';
import type { WorkloadChange } from '../projects/workload-spec';

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
 * What each workload ran in one tenant and environment at a commit, read back from its generated files: the tag (the
 * version of its Application), replicas and variables (what a rollback sets again, src/releases/rollback-planner.ts).
 * Workloads without files at that commit are left out.
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
