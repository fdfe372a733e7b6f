import type { Knex } from 'knex';

/**
 * Issue 50: a release that ran under a break-glass session names it (who opened it, why), where it used to show only
 * the approval policy it bypassed. Set when the release's workflow takes the bypass, with its audit entry.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('releases', (t) => {
    t.jsonb('break_glass');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('releases', (t) => {
    t.dropColumn('break_glass');
  });
}
