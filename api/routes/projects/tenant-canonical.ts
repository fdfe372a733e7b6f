import type { ProjectTenantService } from '../../../src/projects/project-tenant-service';
import type { AppContext } from '../../context';
import { orgCallerOf, paramOf } from '../../request';

/**
 * The `canonical` of routes under `/api/v2/tenants/:tenant`: whichever name the caller used (slug, id, catalogue
 * id), the action carries the project tenant id, so a grant or key restriction on that id applies to every name.
 */
export function tenantCanonical(tenants: Pick<ProjectTenantService, 'resolve'>) {
  return async (ctx: AppContext) => ({
    tenant: (await tenants.resolve(orgCallerOf(ctx), paramOf(ctx, 'tenant'))).id,
  });
}
