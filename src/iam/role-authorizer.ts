import { ROLE_RANK, type OrgRole } from './principal';

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

export function atLeast(role: OrgRole | null, needed: OrgRole): boolean {
  return role !== null && ROLE_RANK[role] >= ROLE_RANK[needed];
}

export function higherRole(a: OrgRole | null, b: OrgRole | null): OrgRole | null {
  if (a === null) return b;
  if (b === null) return a;
  return ROLE_RANK[a] >= ROLE_RANK[b] ? a : b;
}
