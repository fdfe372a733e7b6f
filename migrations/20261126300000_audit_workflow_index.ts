import type { Knex } from 'knex';

/**
 * Issue 35: every commit looks its own audit entries up by workflow id and commit key (`commitEntryIds`: a retry
 * finds what it wrote), and a workflow's entries are read by workflow id; without an index each lookup scanned the
 * whole audit log, a cost that grew with every entry the organization ever wrote. The commit key is in the index: a
 * long-lived workflow (a project's image updates) names many commits.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE INDEX audit_log_workflow_id ON audit_log (workflow_id, (details->>'commitKey')) WHERE workflow_id IS NOT NULL`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX audit_log_workflow_id');
}
