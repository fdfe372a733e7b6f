import type { Queryable } from '../db/knex';

/**
 * Records that a credential acted. At most one write a minute per credential: "last used" is for people deciding
 * whether a key is still in use, and a write per request would cost more than the request.
 */
export async function touchLastUsed(db: Queryable, table: 'project_api_keys' | 'service_account_tokens', id: string) {
  await db(table)
    .where({ id })
    .andWhere((b) => void b.whereNull('last_used_at').orWhereRaw("last_used_at < now() - interval '1 minute'"))
    .update({ last_used_at: db.fn.now() });
}
