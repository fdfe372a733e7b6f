import type { Knex } from 'knex';

/**
 * Manifest policies and approval policies of a project (issue 10). Rules and eligible approvers are JSON documents
 * checked by the request schemas; team and user ids inside them are checked against the organization on write, and a
 * team or member removed later simply stops matching (approval-decision.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('policies', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('mode').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.jsonb('rules').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['project_id', 'name']);
    t.index(['organization_id', 'name']);
  });
  await knex.raw("ALTER TABLE policies ADD CONSTRAINT policies_mode_ck CHECK (mode IN ('enforce','audit'))");

  await knex.schema.createTable('approval_policies', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('name').notNullable();
    /** Environment slugs; empty means every environment of the project. */
    t.jsonb('environments').notNullable();
    /** Project tenant ids; null means every tenant. */
    t.jsonb('tenant_ids');
    t.integer('required_approvals').notNullable();
    t.jsonb('eligible_approvers').notNullable();
    t.boolean('allow_self_approval').notNullable().defaultTo(false);
    t.integer('expires_after_minutes');
    t.boolean('enabled').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['project_id', 'name']);
    t.index(['organization_id', 'name']);
  });
  await knex.raw(
    'ALTER TABLE approval_policies ADD CONSTRAINT approval_policies_required_ck CHECK (required_approvals BETWEEN 1 AND 10)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('approval_policies');
  await knex.schema.dropTable('policies');
}
