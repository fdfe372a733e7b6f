import type { Knex } from 'knex';

/**
 * Domain events (what later notifications consume, written in the transaction of the change they report), a project's
 * optional external Git remote (its token sealed at rest), and the result of pushing each commit to it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('domain_events', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    // Consumers read in this order and remember the last one they handled.
    t.bigIncrements('seq', { primaryKey: false });
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('project_id').references('projects.id').onDelete('SET NULL');
    t.text('type').notNullable();
    t.jsonb('payload').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_id', 'seq']);
  });

  await knex.schema.createTable('project_remotes', (t) => {
    t.uuid('project_id').primary().references('projects.id').onDelete('CASCADE');
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('url').notNullable();
    // The platform's secrets box (AES-256-GCM), bound to the project (remoteTokenAad); null for no token.
    t.text('token_sealed');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('git_remote_pushes', (t) => {
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('commit_sha').notNullable();
    t.text('url').notNullable();
    t.text('status').notNullable();
    t.text('error');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['project_id', 'commit_sha']);
  });
  await knex.raw(
    "ALTER TABLE git_remote_pushes ADD CONSTRAINT git_remote_pushes_status_ck CHECK (status IN ('pushed','failed'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('git_remote_pushes');
  await knex.schema.dropTable('project_remotes');
  await knex.schema.dropTable('domain_events');
}
