import type { Knex } from 'knex';

/**
 * Promotions (issue 11): one row per promotion of a source environment's versions to a target environment, owned by
 * its workflow `promotion-<id>`; the causes that block it now, the per-tenant sync state after the commit, and the
 * approvals (one per person). Releases gain a kind: a rollback is a release that restores an earlier one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('promotions', (t) => {
    t.uuid('id').primary();
    t.bigIncrements('seq', { primaryKey: false });
    t.specificType('sort_key', "text GENERATED ALWAYS AS (lpad(seq::text, 19, '0')) STORED");
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('source_environment').notNullable();
    t.text('target_environment').notNullable();
    // [{tenant, tenantId, changes: [{workload, tag}]}]: what moves, computed when the promotion was requested.
    t.jsonb('moves').notNullable();
    t.text('status').notNullable();
    t.text('status_reason');
    // [{cause, message, details}] of the last evaluation that blocked it.
    t.jsonb('causes').notNullable().defaultTo('[]');
    t.jsonb('approval_policies');
    t.jsonb('break_glass');
    t.text('commit_sha');
    // {<tenant>: {syncStatus, healthStatus}} reported for the commit.
    t.jsonb('sync').notNullable().defaultTo('{}');
    t.text('workflow_id').notNullable();
    t.timestamp('workflow_started_at', { useTz: true });
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.text('created_by_actor').notNullable();
    t.timestamp('committed_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_id', 'project_id', 'sort_key']);
    t.index(['commit_sha']);
  });
  await knex.raw(
    `ALTER TABLE promotions ADD CONSTRAINT promotions_status_ck CHECK (status IN ('Evaluating','Blocked','Executing',
     'Syncing','Healthy','Failed','Expired','Cancelled'))`,
  );
  await knex.raw('CREATE INDEX promotions_unstarted_ix ON promotions (created_at) WHERE workflow_started_at IS NULL');

  await knex.schema.createTable('promotion_approvals', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('promotion_id').notNullable().references('promotions.id').onDelete('CASCADE');
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('user_id').references('users.id').onDelete('SET NULL');
    t.text('actor').notNullable();
    t.text('comment');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['promotion_id', 'user_id']);
  });

  await knex.schema.alterTable('releases', (t) => {
    t.text('kind').notNullable().defaultTo('release');
    t.uuid('rollback_of');
  });
  await knex.raw("ALTER TABLE releases ADD CONSTRAINT releases_kind_ck CHECK (kind IN ('release','rollback'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE releases DROP CONSTRAINT releases_kind_ck');
  await knex.schema.alterTable('releases', (t) => {
    t.dropColumn('rollback_of');
    t.dropColumn('kind');
  });
  await knex.schema.dropTable('promotion_approvals');
  await knex.schema.dropTable('promotions');
}
