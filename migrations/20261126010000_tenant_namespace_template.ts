import type { Knex } from 'knex';

/**
 * A project tenant's own Argo CD namespace template (issue 26 item 1, docs/argocd.md "Destinations"): null keeps the
 * environment's or the project's.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('project_tenants', (t) => {
    t.text('namespace_template');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('project_tenants', (t) => {
    t.dropColumn('namespace_template');
  });
}
