import type { Tx } from '../db/knex';
import { NotFound } from '../errors';

/** The catalogue tables whose entries projects take up (project tenants, project environments). */
export type CatalogueTable = 'org_tenants' | 'org_environments';

/**
 * Locks the catalogue entry FOR UPDATE for the rest of `trx`, then runs `clear`: it refuses (409) while something
 * uses the entry in a project, or clears those uses (issue 26 item 8). No project takes the entry up meanwhile:
 * adding a project tenant or environment references the row, and that foreign-key check waits on the lock until the
 * entry is gone. 404 when the entry went before the lock.
 */
export async function refuseWhileUsed<T>(
  trx: Tx,
  entry: { table: CatalogueTable; organizationId: string; id: string },
  clear: () => Promise<T>,
): Promise<T> {
  const locked = (await trx(entry.table)
    .where({ organization_id: entry.organizationId, id: entry.id })
    .forUpdate()
    .first('id')) as { id: string } | undefined;
  if (!locked) throw new NotFound(`${entry.table === 'org_tenants' ? 'tenant' : 'environment'} not found`);
  return clear();
}
