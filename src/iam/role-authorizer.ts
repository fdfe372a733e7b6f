import { Forbidden } from '../errors';
import { ROLE_RANK, type OrgRole, type Principal } from './principal';

/**
 * Minimum organization role per action. Actions use the dotted form of service-account patterns; `*` stands for one
 * segment (a slug or id). An action missing here is denied: deny by default.
 */
export type ActionRoleTable = Record<string, OrgRole>;

function matches(pattern: string, action: string): boolean {
  const p = pattern.split('.');
  const a = action.split('.');
  return p.length === a.length && p.every((seg, i) => seg === '*' || seg === a[i]);
}

export function minimumRole(table: ActionRoleTable, action: string): OrgRole | null {
  for (const [pattern, role] of Object.entries(table)) if (matches(pattern, action)) return role;
  return null;
}

export function checkRole(table: ActionRoleTable, principal: Principal, action: string): void {
  const needed = minimumRole(table, action);
  if (needed === null) throw new Forbidden(`action ${action} is not permitted`);
  if (principal.role === null || ROLE_RANK[principal.role] < ROLE_RANK[needed]) {
    throw new Forbidden(`this action requires the ${needed} role`);
  }
}
