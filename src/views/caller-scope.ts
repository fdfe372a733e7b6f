import type { Queryable } from '../db/knex';
import type { Principal } from '../iam/principal';
import { findOrganizationById, type Organization } from '../orgs/org-repository';
import { findProjectBySlug, type Project } from '../projects/project-repository';

export type CallerScope = ReturnType<typeof createCallerScope>;

/**
 * What a credential reaches by name, for the protocol endpoints that address things by slug in their paths (Git over
 * HTTP, the OCI registry): the caller's own organization, and a project of it when the path names that organization.
 * Another organization's slug finds nothing, as a missing one would.
 */
export function createCallerScope(db: Queryable) {
  async function organizationOf(principal: Principal): Promise<Organization | null> {
    return principal.organizationId ? findOrganizationById(db, principal.organizationId) : null;
  }
  return {
    organizationOf,
    async projectOf(principal: Principal, orgSlug: string, projectSlug: string): Promise<Project | null> {
      const org = await organizationOf(principal);
      return org?.slug === orgSlug ? findProjectBySlug(db, org.id, projectSlug) : null;
    },
  };
}
