import type { Knex } from 'knex';

/**
 * Inbound webhooks (issue 12): per-project settings of the image-update webhook (sealed shared secret with a rotation
 * overlap, auto-update environments, image and tag filters), the received requests (their hash is unique: a replay
 * or a concurrent duplicate loses the insert), the newest signed tag per workload and target (an older request never
 * overwrites a newer one), the continuous-delivery controller's per-organization token and the deployment status it
 * reports per project, tenant, environment and service.
 */
export async function up(knex: Knex): Promise<void> {
  // Shape A names a repository: the workloads using it are found by their image repository in every organization.
  await knex.raw(`CREATE INDEX workloads_image_repository ON workloads ((spec->'image'->>'repository'))`);
  await knex.schema.createTable('webhook_settings', (t) => {
    t.uuid('project_id').primary().references('projects.id').onDelete('CASCADE');
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('secret_sealed').notNullable();
    t.text('previous_secret_sealed');
    t.timestamp('previous_secret_expires_at', { useTz: true });
    t.specificType('auto_update_environments', 'text[]').notNullable().defaultTo('{}');
    t.text('image_filter');
    t.text('tag_filter');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('webhook_requests', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    // `image-update` or `cdcontroller`: the hash is unique per kind.
    t.text('kind').notNullable();
    t.text('request_hash').notNullable();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('project_id').references('projects.id').onDelete('CASCADE');
    // received, committed, failed
    t.text('status').notNullable();
    t.text('commit_sha');
    t.jsonb('result');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.unique(['kind', 'request_hash']);
    t.index(['expires_at']);
  });
  await knex.schema.createTable('image_update_marks', (t) => {
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('workload').notNullable();
    t.text('tenant').notNullable();
    t.text('environment').notNullable();
    t.text('tag').notNullable();
    t.timestamp('signed_at', { useTz: true }).notNullable();
    t.primary(['project_id', 'workload', 'tenant', 'environment']);
  });
  await knex.schema.createTable('cdcontroller_tokens', (t) => {
    t.uuid('organization_id').primary().references('organizations.id').onDelete('CASCADE');
    t.text('token_hash').notNullable().unique();
    t.text('previous_token_hash').unique();
    t.timestamp('previous_expires_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('deployment_statuses', (t) => {
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.uuid('tenant_id').notNullable().references('project_tenants.id').onDelete('CASCADE');
    t.text('tenant_slug').notNullable();
    t.text('environment').notNullable();
    t.text('service').notNullable();
    t.text('sync_status').notNullable();
    t.text('health_status').notNullable();
    t.text('revision').notNullable();
    t.text('namespace').notNullable();
    // The controller's own time of the event: an older event never overwrites a newer one.
    t.timestamp('reported_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['project_id', 'tenant_id', 'environment', 'service']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX workloads_image_repository');
  for (const table of [
    'deployment_statuses',
    'cdcontroller_tokens',
    'image_update_marks',
    'webhook_requests',
    'webhook_settings',
  ]) {
    await knex.schema.dropTable(table);
  }
}
