import { parseYaml } from '../parse/bounded-parse';
import { serviceDir, type Target } from '../delivery-layout/target-paths';
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

/** The tag and replicas of the Deployment a directory holds; null when it holds none. */
function deploymentValues(
  files: Map<string, string>,
  dir: string,
  objects?: ReadonlyMap<string, unknown>,
): Pick<WorkloadChange, 'tag' | 'replicas'> | null {
  const path = `${dir}/deployment.yaml`;
  const deployment = files.get(path);
  if (deployment === undefined) return null;
  // The object its text was dumped from, when the generator's (issue 46: parsing 1,000 Deployments back was a tenth of
  // a generate's CPU); the same values, since the text is that object's YAML.
  const doc = (objects?.get(path) ?? parseYaml(deployment, path)) as Doc;
  const image = doc.spec?.template?.spec?.containers?.[0]?.image;
  const tag = typeof image === 'string' ? tagOf(image) : null;
  return {
    ...(tag ? { tag } : {}),
    ...(typeof doc.spec?.replicas === 'number' ? { replicas: doc.spec.replicas } : {}),
  };
}

/**
 * The tag a target's Deployment runs in a tree (its Application's version), reading that file alone; null when it has
 * none. Throws when the file is not YAML. `objects`: the generated files' objects (FileChanges.objects).
 */
export function tagAt(
  files: Map<string, string>,
  target: Target,
  objects?: ReadonlyMap<string, unknown>,
): string | null {
  return deploymentValues(files, serviceDir(target), objects)?.tag ?? null;
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
    const values = deploymentValues(files, dir);
    if (values === null) continue;
    const change: WorkloadChange = { workload, ...values };
    const config = files.get(`${dir}/configmap.yaml`);
    const data = config === undefined ? undefined : (parseYaml(config, `${dir}/configmap.yaml`) as Doc).data;
    if (data && typeof data === 'object') change.variables = data as Record<string, string>;
    changes.push(change);
  }
  return changes;
}
