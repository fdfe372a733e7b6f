import type { Db } from '../../src/db/knex';

/** The shape of the filled log: who and what the filter figures pick from. */
export const FILL = { users: 200, serviceAccounts: 20, actions: 40, resourceTypes: 10, projects: 50, otherOrgs: 4 };

/**
 * `count` audit entries written straight into the table in one statement (the hash chain is not computed: the bench
 * reads, it never verifies). Four in five belong to `organizationId`, the rest to four other organizations; in each,
 * eight in ten are by one of 200 users (`user<k>@example.test`, user id `md5('u<k>')`), one by a service account and
 * one by the system, and one in 10,000 by one of ten rare users (`rare<k>@example.test`, about 80 entries each spread
 * over the whole log: the case an unindexed filter scans the organization's log for); 40 actions, 10 resource types, 50 projects, one entry in 50 a failure, 30 s apart.
 */
export async function fillAuditLog(db: Db, organizationId: string, count: number): Promise<void> {
  await db.raw(
    `INSERT INTO audit_log (chain, organization_id, project_id, user_id, actor_type, actor, action, category,
       resource_type, resource_id, status, details, created_at, prev_hash, hash)
     SELECT o.org::text, o.org, md5('p' || (i % ${FILL.projects}))::uuid,
       CASE WHEN i % 10 < 8 THEN md5('u' || (i / 10 % ${FILL.users}))::uuid END,
       CASE WHEN i % 10 < 8 THEN 'user' WHEN i % 10 = 8 THEN 'service_account' ELSE 'system' END,
       CASE WHEN i % 10000 = 7 THEN 'rare' || (i / 10000 % 10) || '@example.test'
            WHEN i % 10 < 8 THEN 'user' || (i / 10 % ${FILL.users}) || '@example.test'
            WHEN i % 10 = 8 THEN 'sa-' || (i / 10 % ${FILL.serviceAccounts}) ELSE 'scheduler' END,
       'bench.action' || (i / 3 % ${FILL.actions}), 'configuration', 'type' || (i % ${FILL.resourceTypes}),
       'r' || (i % 5000), CASE WHEN i % 50 = 0 THEN 'failure' ELSE 'success' END, '{}',
       now() - make_interval(secs => (? - i) * 30), '', ''
     FROM generate_series(1, ?) AS i,
       LATERAL (SELECT CASE WHEN i % 5 = 4 THEN md5('org' || (i % ${FILL.otherOrgs}))::uuid
                            ELSE ?::uuid END AS org) AS o`,
    [count, count, organizationId],
  );
  await db.raw('ANALYZE audit_log');
}

/** The user id the fill gave user `k`. */
export async function userIdOf(db: Db, k: number): Promise<string> {
  const row = (await db.raw(`SELECT md5(?)::uuid AS id`, [`u${k}`])) as { rows: { id: string }[] };
  return row.rows[0]!.id;
}
