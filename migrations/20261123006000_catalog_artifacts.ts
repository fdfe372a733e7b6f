import type { Knex } from 'knex';

/**
 * The organization's catalog of versioned kustomize bases and manifest bundles (issue 18): one row per version, its
 * files (path -> content) inline as JSON. A version is immutable: uploading the same name and version again conflicts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('catalog_artifacts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('name').notNullable();
    t.text('version').notNullable();
    t.specificType('ref', "text GENERATED ALWAYS AS (name || '/' || version) STORED");
    t.text('kubernetes_version').notNullable();
    t.jsonb('files').notNullable();
    t.integer('file_count').notNullable();
    t.integer('total_bytes').notNullable();
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_id', 'kind', 'name', 'version']);
    t.index(['organization_id', 'kind', 'ref']);
  });
  await knex.raw(
    "ALTER TABLE catalog_artifacts ADD CONSTRAINT catalog_artifacts_kind_ck CHECK (kind IN ('kustomize-base','manifest-bundle'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('catalog_artifacts');
}
