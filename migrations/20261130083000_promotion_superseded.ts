import type { Knex } from 'knex';

/**
 * Issues 48 and 49, image updates follow rollout plans (docs/decisions/0014): the wave promotions of an image rollout
 * that a newer one of the same workload and environment superseded name that newer rollout, and the commit path
 * refuses their commit (an older tag never lands after a newer one).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('promotions', (t) => {
    t.uuid('superseded_by');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('promotions', (t) => {
    t.dropColumn('superseded_by');
  });
}
