import type { Knex } from 'knex';

/**
 * Commits of hosted repositories (issue 35, issue 25): one row per commit the one commit path wrote, in the same
 * transaction as the commit's audit entries. The idempotency key of a write finds its commit here (unique per
 * repository) instead of a scan of the history, and the newest row is the branch head the database vouches for: a
 * branch tip past it is a commit whose transaction never committed, which the next writer rolls back.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('git_commits', (t) => {
    t.bigIncrements('seq').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('idempotency_key').notNullable();
    t.text('sha').notNullable();
    t.text('parent_sha');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['project_id', 'idempotency_key']);
    t.index(['project_id', 'seq']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('git_commits');
}
