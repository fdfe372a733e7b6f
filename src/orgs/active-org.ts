import { NotFound } from '../errors';
import { notFoundInOrg, type CrossOrgDeps } from '../iam/cross-org';
import type { OrgCaller } from '../iam/caller';
import { SLUG_PATTERN, findOrganizationById, type Organization } from './org-repository';

/**
 * `/api/v1/organizations/{slug}/...` addresses the caller's active organization (the token's org_id); any other
 * slug, including one of another organization the caller also belongs to, answers 404 like a missing one.
 */
export async function resolveActiveOrg(deps: CrossOrgDeps, caller: OrgCaller, slug: string): Promise<Organization> {
  const org = await findOrganizationById(deps.db, caller.organizationId);
  if (org && org.slug === slug) return org;
  if (!SLUG_PATTERN.test(slug)) throw new NotFound('organization not found');
  return notFoundInOrg(deps, caller, {
    table: 'organizations',
    column: 'slug',
    orgColumn: 'id',
    value: slug,
    resourceType: 'organization',
    category: 'configuration',
  });
}
