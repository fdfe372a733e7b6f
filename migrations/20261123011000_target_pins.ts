import type { Knex } from 'knex';

/**
 * Pinned targets (issue 11): a rollback pins its tenant and environment so image auto-update and bulk image update
 * skip it until someone unpins. One pin per project, tenant and environment.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('target_pins', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.uuid('tenant_id').notNullable().references('project_tenants.id').onDelete('CASCADE');
    t.text('tenant_slug').notNullable();
    t.text('environment').notNullable();
    t.text('reason').notNullable();
    // What pinned it: the rollback release, when a rollback did.
    t.uuid('release_id');
    t.uuid('pinned_by');
    t.text('pinned_by_actor').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['project_id', 'tenant_id', 'environment']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('target_pins');
}
