import type { Queryable } from '../db/knex';
import { InvalidInput, NotFound } from '../errors';
import { loadProject, type DeliveryContext } from '../gitops/delivery-model';
import { renderAll } from '../gitops/manifests';
import { isKubernetesManifest } from '../delivery-layout/target-paths';
import { namesTenant } from '../projects/tenant-ref';

/**
 * What the delivery generator would write for one tenant in one environment (its Kubernetes manifests, not the
 * kustomization or Argo CD files), rendered from the project's current configuration without touching Git.
 */
export async function renderedTarget(
  db: Queryable,
  organizationId: string,
  projectId: string,
  ctx: DeliveryContext,
  target: { environment: string; tenantId: string },
): Promise<Map<string, string>> {
  const loaded = await loadProject(db, organizationId, projectId, ctx);
  if (!loaded) throw new NotFound('project not found');
  const tenant = loaded.tenants.find((t) => namesTenant(t, target.tenantId));
  if (!tenant) throw new InvalidInput('tenantId is not a tenant of the project');
  const rendered = renderAll(loaded.model, (t) => t.tenant === tenant.slug && t.environment === target.environment);
  return new Map([...rendered].filter(([path]) => isKubernetesManifest(path)));
}
