import type { Knex } from 'knex';

/**
 * Deployed state (issue 27): what runs where is data.
 *
 * - `deployment_revisions`: every commit the one commit path made, in commit order per project (`position`), so a
 *   controller report at a revision can be placed before or after the commit a workflow waits for.
 * - `deployed_targets`: one row per Application (project, tenant, environment, service): the revision, rendered-content
 *   digest and version the commit path last wrote there and by what (desired), the controller's last report (live),
 *   and since when the desired content has been Synced and Healthy (verified).
 * - `deployed_target_events`: the history of both (commits, reports, verifications), newest last.
 * - `deployment_soak_times`: an optional soak time per project environment before a version verified there may leave.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('deployment_revisions', (t) => {
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('sha').notNullable();
    t.bigIncrements('position', { primaryKey: false });
    t.timestamp('committed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['project_id', 'sha']);
  });

  await knex.schema.createTable('deployed_targets', (t) => {
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.uuid('tenant_id').notNullable().references('project_tenants.id').onDelete('CASCADE');
    t.text('tenant_slug').notNullable();
    t.text('environment').notNullable();
    t.text('service').notNullable();
    // Desired: what the commit path last wrote for this Application (null digest: its files were removed).
    t.text('desired_revision');
    t.bigInteger('desired_position');
    t.text('desired_digest');
    t.text('desired_version');
    t.text('source_kind');
    t.text('source_id');
    t.text('actor');
    t.timestamp('desired_at', { useTz: true });
    // Live: the controller's last report, and the version of the newest commit at or before its revision.
    t.text('live_revision');
    t.bigInteger('live_position');
    t.text('live_version');
    t.text('sync_status');
    t.text('health_status');
    t.timestamp('reported_at', { useTz: true });
    t.timestamp('received_at', { useTz: true });
    // Verified: the desired content has been Synced and Healthy since this instant (null: not verified now).
    t.timestamp('healthy_since', { useTz: true });
    // The matrix's order and keyset cursor: tenant, environment, service.
    t.specificType(
      'target_key',
      "text GENERATED ALWAYS AS (tenant_slug || '/' || environment || '/' || service) STORED",
    );
    t.primary(['project_id', 'tenant_id', 'environment', 'service']);
    t.index(['project_id', 'target_key']);
  });

  await knex.schema.createTable('deployed_target_events', (t) => {
    t.bigIncrements('id');
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.uuid('tenant_id').notNullable().references('project_tenants.id').onDelete('CASCADE');
    t.text('environment').notNullable();
    t.text('service').notNullable();
    // commit | report | verified
    t.text('kind').notNullable();
    t.text('revision').notNullable();
    t.bigInteger('position');
    t.text('digest');
    t.text('version');
    t.text('source_kind');
    t.text('source_id');
    t.text('actor');
    t.text('sync_status');
    t.text('health_status');
    t.timestamp('at', { useTz: true }).notNullable();
    t.index(['project_id', 'tenant_id', 'environment', 'service', 'id']);
    t.index(['project_id', 'revision', 'kind']);
  });
  await knex.raw(
    `CREATE UNIQUE INDEX deployed_target_events_commit_once ON deployed_target_events
       (project_id, tenant_id, environment, service, revision) WHERE kind = 'commit'`,
  );

  await knex.schema.createTable('deployment_soak_times', (t) => {
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('environment').notNullable();
    t.integer('soak_seconds').notNullable();
    t.primary(['project_id', 'environment']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['deployment_soak_times', 'deployed_target_events', 'deployed_targets', 'deployment_revisions']) {
    await knex.schema.dropTable(table);
  }
}
