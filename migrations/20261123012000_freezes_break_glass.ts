import type { Knex } from 'knex';

/**
 * Freeze windows, the organization's stop-the-line switch, break-glass sessions and who may open them (issue 11).
 * A freeze window belongs to a project, or to the whole organization when `project_id` is null (then `project_ids`
 * may narrow it). Scope lists are JSON arrays; empty means every environment, tenant or project.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('freeze_windows', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('project_id').references('projects.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('reason').notNullable();
    // One-off: starts_at and ends_at. Recurring: rrule, time_zone, duration_minutes; starts_at anchors the rule.
    t.timestamp('starts_at', { useTz: true }).notNullable();
    t.timestamp('ends_at', { useTz: true });
    t.text('rrule');
    t.text('time_zone');
    t.integer('duration_minutes');
    t.jsonb('environments').notNullable().defaultTo('[]');
    t.jsonb('tenants').notNullable().defaultTo('[]');
    t.jsonb('project_ids').notNullable().defaultTo('[]');
    t.text('created_by_actor').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_id', 'project_id']);
  });
  await knex.raw(`ALTER TABLE freeze_windows ADD CONSTRAINT freeze_windows_shape CHECK (
    (rrule IS NULL AND ends_at IS NOT NULL AND ends_at > starts_at AND time_zone IS NULL AND duration_minutes IS NULL)
    OR (rrule IS NOT NULL AND ends_at IS NULL AND time_zone IS NOT NULL AND duration_minutes > 0))`);

  await knex.schema.createTable('freeze_switches', (t) => {
    t.uuid('organization_id').primary().references('organizations.id').onDelete('CASCADE');
    t.boolean('enabled').notNullable();
    t.text('reason').notNullable();
    t.text('changed_by_actor').notNullable();
    t.timestamp('changed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('break_glass_sessions', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable();
    t.text('actor').notNullable();
    t.text('justification').notNullable();
    t.integer('duration_minutes').notNullable();
    t.jsonb('project_ids').notNullable().defaultTo('[]');
    t.jsonb('environments').notNullable().defaultTo('[]');
    t.text('workflow_id').notNullable();
    t.timestamp('opened_at', { useTz: true }).notNullable();
    t.timestamp('ends_at', { useTz: true }).notNullable();
    t.timestamp('closed_at', { useTz: true });
    t.text('closed_by_actor');
    // 'expired' (the workflow's timer) or 'closed' (by hand).
    t.text('close_reason');
    t.index(['organization_id', 'opened_at']);
    t.index(['organization_id', 'user_id', 'closed_at']);
  });

  await knex.schema.createTable('break_glass_settings', (t) => {
    t.uuid('organization_id').primary().references('organizations.id').onDelete('CASCADE');
    t.jsonb('allowed_roles').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // A session's page lists the audit entries that carry its id (src/audit breakGlassSessionEntries).
  await knex.raw(`CREATE INDEX audit_log_break_glass_session ON audit_log ((details->'breakGlass'->>'sessionId'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX audit_log_break_glass_session');
  await knex.schema.dropTable('break_glass_settings');
  await knex.schema.dropTable('break_glass_sessions');
  await knex.schema.dropTable('freeze_switches');
  await knex.schema.dropTable('freeze_windows');
}
