import type { Knex } from 'knex';

/**
 * Issue 46: a commit's deployed-state rows (one `deployed_targets` row and one `deployed_target_events` row an
 * Application it changed) each checked three foreign keys, the organization, the project and the tenant, a lookup
 * each: a 1,000-Application generate's rows statement spent about 34 of its 80 ms in PostgreSQL on them. One key per
 * row now, the tenant with its project and organization (`project_tenants`), checks the same rows in one lookup and
 * says more: the three ids belong together. Deleting an organization, a project or a tenant still removes the rows
 * (organizations -> projects -> project_tenants cascade).
 */
const TABLES = ['deployed_targets', 'deployed_target_events'];
const TENANT_KEY = 'project_tenants_id_project_organization_unique';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE UNIQUE INDEX ${TENANT_KEY} ON project_tenants (id, project_id, organization_id)`);
  for (const table of TABLES) {
    await knex.raw(
      `ALTER TABLE ${table}
         DROP CONSTRAINT ${table}_organization_id_foreign,
         DROP CONSTRAINT ${table}_project_id_foreign,
         DROP CONSTRAINT ${table}_tenant_id_foreign,
         ADD CONSTRAINT ${table}_tenant_foreign FOREIGN KEY (tenant_id, project_id, organization_id)
           REFERENCES project_tenants (id, project_id, organization_id) ON DELETE CASCADE NOT VALID`,
    );
    await knex.raw(`ALTER TABLE ${table} VALIDATE CONSTRAINT ${table}_tenant_foreign`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.raw(
      `ALTER TABLE ${table}
         DROP CONSTRAINT ${table}_tenant_foreign,
         ADD CONSTRAINT ${table}_organization_id_foreign FOREIGN KEY (organization_id)
           REFERENCES organizations (id) ON DELETE CASCADE,
         ADD CONSTRAINT ${table}_project_id_foreign FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE,
         ADD CONSTRAINT ${table}_tenant_id_foreign FOREIGN KEY (tenant_id) REFERENCES project_tenants (id) ON DELETE CASCADE`,
    );
  }
  await knex.raw(`DROP INDEX ${TENANT_KEY}`);
}
