import type { Knex } from 'knex';

/**
 * Issue 48, service order: a workload may name other workloads of its project it depends on; a release changing
 * several of them commits and waits in that order. Names, not ids: they are what the API and the files use.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workloads', (t) => {
    t.specificType('depends_on', 'text[]').notNullable().defaultTo('{}');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workloads', (t) => {
    t.dropColumn('depends_on');
  });
}
