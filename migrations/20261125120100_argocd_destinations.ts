import type { Knex } from 'knex';

/**
 * Argo CD settings (issue 26): per project environment the destination (namespace template, explicit server, whether
 * it may share a namespace with another environment) and the sync policy; per project the namespace template and the
 * AppProject options. Empty objects mean the documented defaults (docs/argocd.md).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('project_environments', (t) => {
    t.jsonb('argocd').notNullable().defaultTo('{}');
  });
  await knex.schema.alterTable('projects', (t) => {
    t.jsonb('argocd').notNullable().defaultTo('{}');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('project_environments', (t) => {
    t.dropColumn('argocd');
  });
  await knex.schema.alterTable('projects', (t) => {
    t.dropColumn('argocd');
  });
}
