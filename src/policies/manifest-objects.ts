import { DEFAULT_LIMITS, manifestResources } from '../validation';
import { POD_SPEC_PATHS } from '../validation/checks/pod-spec';
import { formatPath, valueAt } from '../validation/field-path';
import { isRecord, ownField, recordField, stringField, type JsonRecord } from '../validation/json';
import { ownValue } from '../parse/own-property';

/** One Kubernetes object of a manifest set, with where it came from. */
export interface ManifestObject {
  file: string;
  kind: string;
  name: string;
  value: JsonRecord;
}

/** A container of a pod template, with the field path policy violations point at. */
export interface ContainerAt {
  container: JsonRecord;
  name: string;
  path: string;
}

/**
 * The objects of every file, parsed with the validation engine's bounded parser (size, documents, depth, nodes and
 * aliases; a hostile file throws ManifestRejected, 400 or 413). Documents that are not YAML mappings are skipped:
 * reporting them is the validation engine's job, and the release runs it before the policies.
 */
export function manifestObjects(files: Map<string, string>): ManifestObject[] {
  const objects: ManifestObject[] = [];
  for (const [file, text] of files) {
    for (const resource of manifestResources(text, DEFAULT_LIMITS)) {
      if (!isRecord(resource.value)) continue;
      const metadata = recordField(resource.value, 'metadata');
      objects.push({
        file,
        kind: stringField(resource.value, 'kind') ?? '',
        name: (metadata && stringField(metadata, 'name')) ?? '',
        value: resource.value,
      });
    }
  }
  return objects;
}

/** Kinds whose `spec.replicas` sets how many pods run. */
export const REPLICATED_KINDS: ReadonlySet<string> = new Set([
  'Deployment',
  'StatefulSet',
  'ReplicaSet',
  'ReplicationController',
]);

/** Containers and init containers of a workload object (none for other kinds). */
export function containersOf(object: ManifestObject): ContainerAt[] {
  const specPath = ownValue(POD_SPEC_PATHS, String(object.kind));
  const podSpec = specPath && valueAt(object.value, specPath);
  if (!specPath || !isRecord(podSpec)) return [];
  const out: ContainerAt[] = [];
  for (const field of ['initContainers', 'containers']) {
    const list = ownField(podSpec, field);
    if (!Array.isArray(list)) continue;
    list.forEach((container, i) => {
      if (!isRecord(container)) return;
      out.push({ container, name: stringField(container, 'name') ?? '', path: formatPath([...specPath, field, i]) });
    });
  }
  return out;
}
