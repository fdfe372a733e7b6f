import type { Knex } from 'knex';

/** The example domain's items (`npm run new-domain`): each belongs to one organization, listed by name. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('example_items', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_id', 'name']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('example_items');
}
