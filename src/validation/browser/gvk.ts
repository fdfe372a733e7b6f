export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** `apps.v1.Deployment`, `core.v1.Pod`, `networking.k8s.io.v1.Ingress`: the schema browser's resource ids. */
export function formatGvk(group: string, version: string, kind: string): string {
  return `${group === '' ? 'core' : group}.${version}.${kind}`;
}

export function parseGvk(gvk: string): GroupVersionKind | undefined {
  const parts = gvk.split('.');
  const kind = parts.pop();
  const version = parts.pop();
  const group = parts.join('.');
  if (!kind || !version || !group) return undefined;
  return { group: group === 'core' ? '' : group, version, kind };
}
