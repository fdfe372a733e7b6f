import type { Knex } from 'knex';

/**
 * Issue 47: the deployments matrix at a past instant and the changes between two instants are read from
 * `deployed_target_events`. What the history lacked is recorded from now on:
 * - `audit_ids`: the audit entries of the commit that wrote the Application (commit events);
 * - `reported_at`: the controller's own timestamp of a report (`at` is when the platform received it).
 * The index answers "the newest event of a kind per Application at or before t" with one index probe per Application
 * (a LATERAL ... ORDER BY at DESC LIMIT 1), and "did anything happen to it in (from, to]".
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('deployed_target_events', (t) => {
    t.specificType('audit_ids', 'text[]');
    t.timestamp('reported_at', { useTz: true });
  });
  await knex.raw(
    `CREATE INDEX deployed_target_events_target_kind_at ON deployed_target_events
       (project_id, tenant_id, environment, service, kind, at DESC, id DESC)`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX deployed_target_events_target_kind_at');
  await knex.schema.alterTable('deployed_target_events', (t) => {
    t.dropColumn('reported_at');
    t.dropColumn('audit_ids');
  });
}
