import { ROLE_RANK, type OrgRole } from './principal';

/**
 * Minimum organization role per action. Actions use the dotted form of service-account patterns; `*` stands for one
 * segment (a slug or id). An action missing here is denied: deny by default. A table is never changed once built.
 */
export type ActionRoleTable = Record<string, OrgRole>;

/** A table compiled once: its patterns split and grouped by segment count (in table order), and a memo of answers. */
interface CompiledTable {
  bySegments: Map<number, { segments: string[]; role: OrgRole }[]>;
  memo: Map<string, OrgRole | null>;
}

/** Concrete actions carry slugs and ids, so the memo is bounded: past this many it starts over. */
const MEMO_MAX = 10_000;
const compiled = new WeakMap<ActionRoleTable, CompiledTable>();

function compile(table: ActionRoleTable): CompiledTable {
  const bySegments = new Map<number, { segments: string[]; role: OrgRole }[]>();
  for (const [pattern, role] of Object.entries(table)) {
    const segments = pattern.split('.');
    const group = bySegments.get(segments.length) ?? [];
    group.push({ segments, role });
    bySegments.set(segments.length, group);
  }
  return { bySegments, memo: new Map() };
}

/**
 * The first pattern of the table (in its order) that matches the action: `*` stands for one segment. Tables are
 * built once at start and never changed, so each is compiled on first use (issue 34 item 5: this runs on every
 * request) and its answers remembered.
 */
export function minimumRole(table: ActionRoleTable, action: string): OrgRole | null {
  let c = compiled.get(table);
  if (!c) {
    c = compile(table);
    compiled.set(table, c);
  }
  const known = c.memo.get(action);
  if (known !== undefined) return known;
  const a = action.split('.');
  const found = c.bySegments.get(a.length)?.find((p) => p.segments.every((seg, i) => seg === '*' || seg === a[i]));
  if (c.memo.size >= MEMO_MAX) c.memo.clear();
  c.memo.set(action, found?.role ?? null);
  return found?.role ?? null;
}

export function atLeast(role: OrgRole | null, needed: OrgRole): boolean {
  return role !== null && ROLE_RANK[role] >= ROLE_RANK[needed];
}

export function higherRole(a: OrgRole | null, b: OrgRole | null): OrgRole | null {
  if (a === null) return b;
  if (b === null) return a;
  return ROLE_RANK[a] >= ROLE_RANK[b] ? a : b;
}
