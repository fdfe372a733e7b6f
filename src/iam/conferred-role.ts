import { Forbidden } from '../errors';
import { actionVocabulary } from './action-vocabulary';
import { anyPatternMatches } from './action-glob';
import { ROLE_RANK, type CredentialRestriction, type OrgRole } from './principal';
import type { ResourceRef } from './resource-refs';
import type { ActionRoleTable } from './role-authorizer';

/** What a credential holds: its role (organization or, for a grant, the resource's), capped by its restriction. */
export interface Holder {
  role: OrgRole | null;
  restriction?: CredentialRestriction | undefined;
}

const SEGMENT_OF: Readonly<Record<ResourceRef['type'], string>> = {
  project: 'projects',
  cluster: 'clusters',
  tenant: 'tenants',
};

/**
 * The actions a role confers: every action of the table whose floor it reaches. On a resource, only the actions of
 * that resource's subtree, with the resource named (`projects.*.read` on project `web` is `projects.web.read`).
 */
export function conferredActions(
  role: OrgRole,
  on?: ResourceRef,
  table: ActionRoleTable = actionVocabulary(),
): string[] {
  const within = Object.entries(table).filter(([, floor]) => ROLE_RANK[floor] <= ROLE_RANK[role]);
  if (!on) return within.map(([pattern]) => pattern);
  const head = SEGMENT_OF[on.type];
  return within
    .map(([pattern]) => pattern.split('.'))
    .filter((segments) => segments[0] === head && segments[1] === '*')
    .map((segments) => [head, on.id, ...segments.slice(2)].join('.'));
}

/** The role a credential acts with: its own role, lowered to what its restriction stands for. */
export function heldRole(holder: Holder): OrgRole | null {
  const { role, restriction } = holder;
  if (role === null || !restriction) return role;
  return ROLE_RANK[restriction.roleCap] < ROLE_RANK[role] ? restriction.roleCap : role;
}

/**
 * Why a credential may not confer `role` (docs/security.md A-80), or null when it may: the role given by an
 * invitation, a grant or a service account's role must be at most the giver's held role, and a restricted credential
 * (service account token, API key) must itself be allowed every action the role would confer. `what` names the thing.
 */
export function conferRefusal(holder: Holder, role: OrgRole, what: string, on?: ResourceRef): string | null {
  const held = heldRole(holder);
  if (held === null || ROLE_RANK[role] > ROLE_RANK[held]) {
    return `${what} with the ${role} role exceeds what this credential holds (${held ?? 'no role'})`;
  }
  const allowed = holder.restriction?.allowedActions;
  if (allowed === undefined) return null;
  const missing = conferredActions(role, on).find((action) => !anyPatternMatches(allowed, action));
  return missing === undefined
    ? null
    : `${what} with the ${role} role exceeds this credential's allowed actions (${missing})`;
}

/** Throws Forbidden with the reason when the credential may not confer the role. */
export function assertMayConfer(holder: Holder, role: OrgRole, what: string, on?: ResourceRef): void {
  const refusal = conferRefusal(holder, role, what, on);
  if (refusal !== null) throw new Forbidden(refusal);
}
