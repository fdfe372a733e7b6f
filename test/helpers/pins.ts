import { pinTarget } from '../../src/pins/pin-repository';
import type { TestPlatform } from './test-platform';

/** Pins a tenant's environment of a project as a rollback leaves it (automatic and bulk image updates skip it). */
export async function pinAsRollback(
  platform: TestPlatform,
  target: { organizationId: string; project: string; tenantId: string; tenant: string; environment: string },
): Promise<void> {
  const project = await platform.services
    .db('projects')
    .where({ organization_id: target.organizationId, slug: target.project })
    .first<{ id: string }>('id');
  await pinTarget(platform.services.db, {
    organization_id: target.organizationId,
    project_id: project.id,
    tenant_id: target.tenantId,
    tenant_slug: target.tenant,
    environment: target.environment,
    reason: 'rolled back',
    release_id: null,
    pinned_by: null,
    pinned_by_actor: 'test',
  });
}
