import type { Knex } from 'knex';

/** CustomResourceDefinitions registered per organization (Enterprise plan), used by validation and the schema browser. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('custom_resource_definitions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('group').notNullable();
    t.text('kind').notNullable();
    t.jsonb('record').notNullable();
    t.uuid('created_by');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_id', 'name']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('custom_resource_definitions');
}
