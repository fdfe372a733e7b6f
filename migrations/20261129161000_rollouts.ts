import type { Knex } from 'knex';

/**
 * Progressive delivery (issue 48): a rollout plan per project and environment (ordered waves of tenants, each with its
 * soak, verification checks and approval gate) and the rollouts that follow one, wave by wave, in one workflow each.
 * Tenants get labels so that a wave can select them by a label selector.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('project_tenants', (t) => {
    t.jsonb('labels').notNullable().defaultTo('{}');
  });
  await knex.schema.createTable('rollout_plans', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('environment').notNullable();
    // [{name, tenants | selector | percent, soakSeconds, checks, approvalGate}] (src/rollouts/rollout-plan.ts)
    t.jsonb('waves').notNullable();
    t.boolean('rollback_on_halt').notNullable().defaultTo(false);
    t.boolean('lift_pins_when_verified_upstream').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['project_id', 'environment']);
  });
  await knex.schema.createTable('rollouts', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('source_environment').notNullable();
    t.text('environment').notNullable();
    // The plan as resolved at the start: each wave with its tenants (what the workflow follows).
    t.jsonb('plan').notNullable();
    t.jsonb('services');
    t.text('status').notNullable();
    t.text('status_reason');
    t.integer('current_wave').notNullable().defaultTo(0);
    // Per wave: state, promotion id, commit, measurements (what the API and `--wait` show).
    t.jsonb('waves').notNullable();
    t.text('workflow_id').notNullable();
    t.uuid('created_by');
    t.text('created_by_actor').notNullable();
    t.timestamp('workflow_started_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_id', 'project_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rollouts');
  await knex.schema.dropTable('rollout_plans');
  await knex.schema.alterTable('project_tenants', (t) => {
    t.dropColumn('labels');
  });
}
