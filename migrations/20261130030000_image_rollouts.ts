import type { Knex } from 'knex';

/**
 * Issue 48, bulk updates follow rollout plans (docs/decisions/0013): an image rollout moves a workload to a tag, not an
 * environment's versions to another, so it and the promotions of its waves have no source environment.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE rollouts ALTER COLUMN source_environment DROP NOT NULL');
  await knex.raw('ALTER TABLE promotions ALTER COLUMN source_environment DROP NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex('rollouts').whereNull('source_environment').delete();
  await knex('promotions').whereNull('source_environment').delete();
  await knex.raw('ALTER TABLE rollouts ALTER COLUMN source_environment SET NOT NULL');
  await knex.raw('ALTER TABLE promotions ALTER COLUMN source_environment SET NOT NULL');
}
