import type { Knex } from 'knex';

/**
 * Releases (issue 10): one row per release, owned by its workflow `release-<id>` (the row records when the workflow
 * was started; a reconciler starts rows left without one). Approvals and rejections are rows of their own, one per
 * person. `queued_at` orders the releases of one target (project, tenant, environment) waiting for their turn.
 * The project policy gains the release setting `auto_deploy`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('releases', (t) => {
    t.uuid('id').primary();
    // Creation order, for newest-first keyset pages (a text key: see src/db/pagination.ts).
    t.bigIncrements('seq', { primaryKey: false });
    t.specificType('sort_key', "text GENERATED ALWAYS AS (lpad(seq::text, 19, '0')) STORED");
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.uuid('tenant_id').notNullable();
    t.text('tenant_slug').notNullable();
    t.text('environment').notNullable();
    t.text('title').notNullable();
    t.jsonb('changes').notNullable();
    t.text('status').notNullable();
    t.text('status_reason');
    t.uuid('waiting_behind');
    t.jsonb('validation');
    t.jsonb('policy_results');
    t.jsonb('approval_policies');
    t.text('commit_sha');
    t.text('sync_status');
    t.text('health_status');
    t.text('workflow_id').notNullable();
    t.timestamp('workflow_started_at', { useTz: true });
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.text('created_by_actor').notNullable();
    t.text('idempotency_key');
    t.text('request_hash');
    t.timestamp('queued_at', { useTz: true });
    t.timestamp('committed_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_id', 'idempotency_key']);
    t.index(['organization_id', 'project_id', 'sort_key']);
    t.index(['project_id', 'tenant_id', 'environment', 'queued_at']);
  });
  await knex.raw(
    `ALTER TABLE releases ADD CONSTRAINT releases_status_ck CHECK (status IN ('Validating','Blocked','PendingApproval',
     'AwaitingDeploy','Queued','Deploying','Syncing','Healthy','Failed','Rejected','Cancelled','Expired'))`,
  );
  await knex.raw('CREATE INDEX releases_unstarted_ix ON releases (created_at) WHERE workflow_started_at IS NULL');

  await knex.schema.createTable('release_approvals', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('release_id').notNullable().references('releases.id').onDelete('CASCADE');
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('user_id').references('users.id').onDelete('SET NULL');
    t.text('actor').notNullable();
    t.text('decision').notNullable();
    t.text('comment');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['release_id', 'user_id']);
  });
  await knex.raw(
    "ALTER TABLE release_approvals ADD CONSTRAINT release_approvals_decision_ck CHECK (decision IN ('approve','reject'))",
  );

  await knex.schema.alterTable('project_policies', (t) => {
    t.boolean('release_auto_deploy').notNullable().defaultTo(true);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('project_policies', (t) => {
    t.dropColumn('release_auto_deploy');
  });
  await knex.schema.dropTable('release_approvals');
  await knex.schema.dropTable('releases');
}
