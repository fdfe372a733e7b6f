import type { Queryable } from '../db/knex';
import { findOrganizationById } from '../orgs/org-repository';
import { findProjectById } from '../projects/project-repository';
import { cachedSlugs, type SlugLookup } from './workflow-labels';

/** Slugs for workflow labels, read through the owners' repositories and cached for a minute. */
export function slugLookup(db: Queryable): SlugLookup {
  return cachedSlugs(async (organizationId, projectId) => {
    const organization = await findOrganizationById(db, organizationId);
    const project = projectId ? await findProjectById(db, organizationId, projectId) : null;
    return { organization: organization?.slug ?? null, project: project?.slug ?? null };
  });
}
