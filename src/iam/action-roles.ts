import type { ActionRoleTable } from './role-authorizer';

/**
 * The kernel's actions: the organization itself and its members. Every domain declares the organization-role floor
 * of its own actions in its manifest (`actions` of src/<domain>/module.ts); the composition root joins them with
 * these into the action vocabulary (src/iam/action-vocabulary.ts; docs/authorization.md shows the matrix). An action
 * missing from the vocabulary is denied. `*` stands for one segment (a slug or an id); resource grants can lift
 * a caller above their organization role for actions on `projects.<slug>`, `clusters.<id>` and `tenants.<id>`.
 */
export const ACTION_ROLES: ActionRoleTable = {
  // Organization and members (/api/v1/organizations/{slug}).
  'org.read': 'viewer',
  'org.update': 'admin',
  'org.delete': 'owner',
  'org.members.read': 'viewer',
  'org.members.update': 'admin',
  'org.members.remove': 'admin',
  // Identity: reset a member's lost MFA (spec: "an organization owner resets MFA").
  'org.members.mfa.reset': 'owner',
};
