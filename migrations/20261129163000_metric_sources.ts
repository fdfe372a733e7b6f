import type { Knex } from 'knex';

/**
 * Issue 48: an organization's metric sources, which rollout verification queries (a Prometheus HTTP API). The
 * bearer token is sealed (AES-256-GCM bound to the row id) and never answered.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('metric_sources', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('kind').notNullable();
    t.text('url').notNullable();
    t.text('token_sealed');
    t.uuid('created_by');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_id', 'name']);
  });
  await knex.raw(`ALTER TABLE metric_sources ADD CONSTRAINT metric_sources_kind CHECK (kind = 'prometheus')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('metric_sources');
}
