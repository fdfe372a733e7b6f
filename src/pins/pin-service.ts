import { NotFound } from '../errors';
import { auditActor, type OrgCaller } from '../iam/caller';
import type { OrgDomainDeps } from '../iam/cross-org';
import type { ProjectService } from '../projects/project-service';
import type { ProjectTenantService } from '../projects/project-tenant-service';
import { pinView, projectPins, unpinTarget } from './pin-repository';
import { unpinEntry } from './pin-release';

export type PinService = ReturnType<typeof createPinService>;

/** Pinned targets: read them, and unpin (audited). A rollback pins (activities/release.ts). */
export function createPinService(
  deps: OrgDomainDeps & {
    projects: Pick<ProjectService, 'projectOf'>;
    tenants: Pick<ProjectTenantService, 'get'>;
  },
) {
  const { db, audit } = deps;

  const tenantOf = (caller: OrgCaller, tenantId: string) => deps.tenants.get(caller, tenantId);

  return {
    async list(caller: OrgCaller, slug: string) {
      const project = await deps.projects.projectOf(caller, slug);
      return { items: (await projectPins(db, project.id)).map(pinView), nextCursor: null };
    },

    async get(caller: OrgCaller, tenantId: string, environment: string) {
      const tenant = await tenantOf(caller, tenantId);
      const pin = (await projectPins(db, tenant.projectId, environment)).find((p) => p.tenant_id === tenant.id);
      if (!pin) throw new NotFound(`${tenant.slug}/${environment} is not pinned`);
      return pinView(pin);
    },

    /** Removes the pin: image auto-update and bulk update reach the target again. */
    async unpin(caller: OrgCaller, tenantId: string, environment: string): Promise<void> {
      const tenant = await tenantOf(caller, tenantId);
      await db.transaction(async (trx) => {
        const removed = await unpinTarget(trx, tenant.projectId, tenant.id, environment);
        if (!removed) throw new NotFound(`${tenant.slug}/${environment} is not pinned`);
        await audit.append(trx, unpinEntry(removed, auditActor(caller), { kind: 'unpin' }));
      });
    },
  };
}
