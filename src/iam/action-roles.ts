import type { ActionRoleTable } from './role-authorizer';

/** The organization-role floor of every action a route declares. */
export const ACTION_ROLES: ActionRoleTable = {
  'org.audit.read': 'admin',
};
