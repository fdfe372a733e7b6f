import type { Queryable } from '../db/knex';
import { readRows, rowsQuery, type RowsQuery } from '../db/rows-together';

/** A pinned tenant and environment of a project: automatic and bulk image updates skip it. */
export interface PinRow {
  id: string;
  organization_id: string;
  project_id: string;
  tenant_id: string;
  tenant_slug: string;
  environment: string;
  reason: string;
  release_id: string | null;
  pinned_by: string | null;
  pinned_by_actor: string;
  created_at: Date;
}

export type NewPin = Omit<PinRow, 'id' | 'created_at'>;

export interface PinView {
  tenant: string;
  tenantId: string;
  environment: string;
  reason: string;
  releaseId: string | null;
  pinnedBy: string;
  pinnedAt: string;
}

export const pinView = (row: PinRow): PinView => ({
  tenant: row.tenant_slug,
  tenantId: row.tenant_id,
  environment: row.environment,
  reason: row.reason,
  releaseId: row.release_id,
  pinnedBy: row.pinned_by_actor,
  pinnedAt: row.created_at.toISOString(),
});

/** Pins the target, or keeps the pin it already has (a second rollback does not move the first pin). */
export async function pinTarget(db: Queryable, pin: NewPin): Promise<PinRow> {
  const [row] = await db('target_pins')
    .insert(pin)
    .onConflict(['project_id', 'tenant_id', 'environment'])
    .merge(['reason', 'release_id', 'pinned_by', 'pinned_by_actor'])
    .returning('*');
  return row as PinRow;
}

export async function unpinTarget(
  db: Queryable,
  projectId: string,
  tenantId: string,
  environment: string,
): Promise<PinRow | null> {
  const [row] = await db('target_pins')
    .where({ project_id: projectId, tenant_id: tenantId, environment })
    .delete()
    .returning('*');
  return (row as PinRow | undefined) ?? null;
}

/** The project's pins, optionally of one environment, by tenant slug then environment. */
export async function projectPins(db: Queryable, projectId: string, environment?: string): Promise<PinRow[]> {
  const query = db<PinRow>('target_pins').where({ project_id: projectId });
  if (environment) query.andWhere({ environment });
  return query.orderBy(['tenant_slug', 'environment']);
}

/** Key of a tenant slug and environment, for looking pairs up in the result of `pinnedPairs`. */
export const pairKey = (tenant: string, environment: string) => `${tenant}\u0000${environment}`;

/** The pins among the given tenant-and-environment pairs of a project, keyed by `pairKey`. */
export async function pinnedPairs(
  db: Queryable,
  projectId: string,
  pairs: { tenant: string; environment: string }[],
): Promise<Map<string, PinRow>> {
  if (pairs.length === 0) return new Map();
  const environments = [...new Set(pairs.map((p) => p.environment))];
  return pinsOf(await readRows(pinRows(db, projectId, environments)), pairs);
}

/** The project's pins (of the environments named), as a RowsQuery: an image update reads them with its other rows. */
export function pinRows(db: Queryable, projectId: string, environments?: string[]): RowsQuery<PinRow> {
  const query = db<PinRow>('target_pins').where({ project_id: projectId });
  if (environments) void query.whereIn('environment', environments);
  return rowsQuery<PinRow, PinRow>(query.select('*'), ['created_at'], (row) => row);
}

/** Those of `rows` that pin one of the pairs, by pair (`pairKey`). */
export function pinsOf(rows: PinRow[], pairs: { tenant: string; environment: string }[]): Map<string, PinRow> {
  const wanted = new Set(pairs.map((p) => pairKey(p.tenant, p.environment)));
  return new Map(
    rows
      .filter((r) => wanted.has(pairKey(r.tenant_slug, r.environment)))
      .map((r) => [pairKey(r.tenant_slug, r.environment), r]),
  );
}

/**
 * The pairs split by their pins: those kept, and the pinned ones skipped with the pin's reason (what a bulk image
 * update and an image rollout's waves leave alone and report).
 */
export async function skipPinned<P extends { tenant: string; environment: string }>(
  db: Queryable,
  projectId: string,
  pairs: P[],
): Promise<{ kept: P[]; skipped: (P & { reason: string })[] }> {
  const pins = await pinnedPairs(db, projectId, pairs);
  const pinOf = (p: P) => pins.get(pairKey(p.tenant, p.environment));
  return {
    kept: pairs.filter((p) => !pinOf(p)),
    skipped: pairs.flatMap((p) => {
      const pin = pinOf(p);
      return pin ? [{ ...p, reason: `pinned: ${pin.reason}` }] : [];
    }),
  };
}
