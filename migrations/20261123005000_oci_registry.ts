import type { Knex } from 'knex';

/**
 * The organization registry (OCI distribution API at /v2/*): repositories namespaced by organization, the blobs each
 * repository links (the bytes live content-addressed under DATA_DIR, src/registry/blob-store.ts), manifests with their
 * content, tags, and unfinished uploads (expired by age).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oci_repositories', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_id', 'name']);
  });

  await knex.schema.createTable('oci_repository_blobs', (t) => {
    t.uuid('repository_id').notNullable().references('oci_repositories.id').onDelete('CASCADE');
    t.text('digest').notNullable();
    t.bigInteger('size').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['repository_id', 'digest']);
    t.index(['digest']);
  });

  await knex.schema.createTable('oci_manifests', (t) => {
    t.uuid('repository_id').notNullable().references('oci_repositories.id').onDelete('CASCADE');
    t.text('digest').notNullable();
    t.text('media_type').notNullable();
    t.text('artifact_type');
    // The config blob's media type (a Helm chart's is application/vnd.cncf.helm.config.v1+json).
    t.text('config_media_type');
    // The digest of the manifest this one refers to (referrers API).
    t.text('subject_digest');
    t.jsonb('annotations');
    t.binary('content').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['repository_id', 'digest']);
    t.index(['repository_id', 'subject_digest']);
  });

  await knex.schema.createTable('oci_tags', (t) => {
    t.uuid('repository_id').notNullable().references('oci_repositories.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('manifest_digest').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['repository_id', 'name']);
  });

  await knex.schema.createTable('oci_uploads', (t) => {
    t.uuid('id').primary();
    t.uuid('repository_id').notNullable().references('oci_repositories.id').onDelete('CASCADE');
    t.bigInteger('size').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['updated_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('oci_uploads');
  await knex.schema.dropTable('oci_tags');
  await knex.schema.dropTable('oci_manifests');
  await knex.schema.dropTable('oci_repository_blobs');
  await knex.schema.dropTable('oci_repositories');
}
