import type { Queryable } from '../db/knex';
import type { OrgRole, Principal } from '../iam/principal';
import { findOrganizationById } from '../orgs/org-repository';
import { findProjectById } from '../projects/project-repository';
import { findKeyById } from './api-key-repository';
import { entriesOpenedBy } from './key-allowlist';
import { findLiveTokenById } from './service-account-repository';

/** What `GET /api/v2/whoami` answers: who the bearer is, whatever credential it presented, and what it may do. */
export interface CallerView {
  kind: Principal['kind'];
  /** As audit entries name it. */
  actor: string;
  organization: { id: string; slug: string; name: string } | null;
  role: OrgRole | null;
  /** The one project of a project API key; null for other credentials. */
  project: { id: string; slug: string; name: string } | null;
  /** The credential: a key's or token's id and name; a user session's id (no name). */
  credential: { id: string; name: string | null };
  /** A machine credential's scopes; null for a user session (the role and grants decide). */
  scopes: string[] | null;
  /** A service-account token's allowed actions; a key's are its project's (`projects.<slug>.**`). */
  allowedActions: string[] | null;
  /** A project API key's paths (the fixed allowlist rows its scopes open); null for other credentials. */
  paths: { method: string; path: string }[] | null;
}

/** Describes the verified caller from its stored credential (names as they are now, not as the token was issued). */
export async function describeCaller(db: Queryable, principal: Principal): Promise<CallerView> {
  const org = principal.organizationId ? await findOrganizationById(db, principal.organizationId) : null;
  const view: CallerView = {
    kind: principal.kind,
    actor: principal.actor,
    organization: org ? { id: org.id, slug: org.slug, name: org.name } : null,
    role: principal.role,
    project: null,
    credential: { id: principal.credentialId, name: null },
    scopes: principal.restriction ? [...principal.restriction.scopes] : null,
    allowedActions: principal.restriction ? [...principal.restriction.allowedActions] : null,
    paths: null,
  };
  if (principal.kind === 'api_key' && org) {
    const key = await findKeyById(db, org.id, principal.credentialId);
    const project = key ? await findProjectById(db, org.id, key.projectId) : null;
    if (key) view.credential.name = key.name;
    if (project) view.project = { id: project.id, slug: project.slug, name: project.name };
    view.paths = entriesOpenedBy(view.scopes ?? []).map((e) => ({
      method: e.method.toUpperCase(),
      path: e.path.replace(/:(\w+)/g, '{$1}'),
    }));
  }
  if (principal.kind === 'service_account' && org) {
    const token = await findLiveTokenById(db, org.id, principal.credentialId);
    if (token) view.credential.name = token.accountName;
  }
  return view;
}
