import type { Knex } from 'knex';

/**
 * Issue 47, delivery metrics (docs/deployments.md#delivery-metrics), read from `deployed_target_events`:
 * - a version's first record in the project (the first commit that wrote it, any tenant or environment) is one probe
 *   of `deployed_target_events_version_first` per verification (lead time);
 * - "was this version verified in this Application before" is one probe of `deployed_target_events_verified_version`
 *   (only a version's first verification in an Application is a change delivered; re-verifications are not).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE INDEX deployed_target_events_version_first ON deployed_target_events
       (project_id, service, version, at, id) WHERE kind = 'commit'`,
  );
  await knex.raw(
    `CREATE INDEX deployed_target_events_verified_version ON deployed_target_events
       (project_id, tenant_id, environment, service, version, at) WHERE kind = 'verified'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX deployed_target_events_verified_version');
  await knex.raw('DROP INDEX deployed_target_events_version_first');
}
