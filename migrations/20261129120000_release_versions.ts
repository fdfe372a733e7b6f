import type { Knex } from 'knex';

/**
 * Issue 50: what a release changes, current -> proposed, per tenant and service (`[{tenant, workload, from, to}]`),
 * recorded when the release is created, so an approver's inbox and the approval notification name both versions as
 * they do for a promotion. Null for releases created before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('releases', (t) => {
    t.jsonb('versions');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('releases', (t) => {
    t.dropColumn('versions');
  });
}
