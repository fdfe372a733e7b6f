import type { Knex } from 'knex';

/**
 * Which releases and promotions a removal would strand (src/environment-removal/target-removal.ts): those into (or, for
 * promotions, from) one of `environments`, of one of `tenantIds`, or changing `workload`. Absent fields match all.
 */
export interface UsageScope {
  environments?: string[];
  tenantIds?: string[];
  workload?: string;
}

/** `column @> value` for a JSON array column: one element containing `element`. */
export function containsElement(q: Knex.QueryBuilder, column: string, element: Record<string, unknown>): void {
  void q.whereRaw('?? @> ?::jsonb', [column, JSON.stringify([element])]);
}
