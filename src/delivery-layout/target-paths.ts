/**
 * The repository layout the delivery generator writes (docs/gitops.md):
 *
 *     tenants/<tenant>/<environment>/<service>/kustomization.yaml   plain kustomize directory of one service
 *     tenants/<tenant>/<environment>/<service>/deployment.yaml
 *     tenants/<tenant>/<environment>/<service>/service.yaml         when the workload declares ports
 *     tenants/<tenant>/<environment>/<service>/configmap.yaml       when it has variables
 *     tenants/<tenant>/<environment>/<service>/extra-<name>.yaml    each extra manifest of the workload, as written
 *     tenants/<tenant>/<environment>/<service>/<kind>-<name>.yaml   instead of the three above for a workload with a
 *                                                                   source: each object its chart or base renders
 *                                                                   (its kustomization annotated with the source:
 *                                                                   src/gitops/target-source.ts)
 *     applications/<tenant>/<environment>/<service>.yaml            Argo CD Application of that directory
 *     appprojects/<project>.yaml                                    Argo CD AppProject (or one per tenant)
 *     bootstrap/appproject.yaml, hub.yaml, per-cluster/<c>.yaml,    the roots a person applies (one per Argo CD)
 *     bootstrap/clusters/<cluster>.yaml                             and the root of each destination cluster
 *     .delivery-validate.json                                       delivery-validate: each environment's version
 *
 * Everything under these roots belongs to the generator; other paths (a README, files written through the files
 * API) are left alone. What goes into the files is rendered by src/gitops/manifests.ts.
 */
export const MANAGED_ROOTS = [
  'tenants/',
  'applications/',
  'appprojects/',
  'bootstrap/',
  '.delivery-validate.json',
] as const;

export interface Target {
  tenant: string;
  environment: string;
  service: string;
}

export function isManaged(path: string): boolean {
  return MANAGED_ROOTS.some((root) => path.startsWith(root));
}

export function serviceDir(t: Target): string {
  return `tenants/${t.tenant}/${t.environment}/${t.service}`;
}

export function applicationPath(t: Target): string {
  return `applications/${t.tenant}/${t.environment}/${t.service}.yaml`;
}

/** Which target a generated path belongs to (null for paths outside the layout). */
export function targetOf(path: string): Target | null {
  const service = /^tenants\/([^/]+)\/([^/]+)\/([^/]+)\/[^/]+$/.exec(path);
  const app = /^applications\/([^/]+)\/([^/]+)\/([^/]+)\.yaml$/.exec(path);
  const m = service ?? app;
  return m ? { tenant: m[1] ?? '', environment: m[2] ?? '', service: m[3] ?? '' } : null;
}

/** Kubernetes manifests among generated files (what the validation engine checks): not kustomize or Argo CD files. */
export function isKubernetesManifest(path: string): boolean {
  return path.startsWith('tenants/') && !path.endsWith('/kustomization.yaml');
}
