import type { Knex } from 'knex';

/**
 * Issue 49: the image creation time of an external registry's manifests (the config's `created`), kept per watched
 * repository by manifest digest so a poll reads each image config once (null: the image has none).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('watch_registry_repositories', (t) => {
    t.jsonb('created').notNullable().defaultTo('{}');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('watch_registry_repositories', (t) => {
    t.dropColumn('created');
  });
}
