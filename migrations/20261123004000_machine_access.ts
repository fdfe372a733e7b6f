import type { Knex } from 'knex';

/**
 * Machine access: project API keys (`svc_...`, one project, scopes) and service accounts (organization scoped) with
 * their tokens (`svcacct_...`). Only SHA-256 hashes of the secret values are stored. Resource grants gain a third
 * subject type so grants apply to service accounts as they do to users and teams.
 */
type Table = Knex.CreateTableBuilder;

function credentialColumns(knex: Knex, t: Table): void {
  t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
  t.specificType('secret_hash', 'bytea').notNullable().unique();
  t.specificType('scopes', 'text[]').notNullable();
  t.uuid('created_by').references('users.id').onDelete('SET NULL');
  t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.timestamp('last_used_at', { useTz: true });
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('project_api_keys', (t) => {
    credentialColumns(knex, t);
    t.uuid('project_id').notNullable();
    t.text('name').notNullable();
    t.foreign(['project_id', 'organization_id'])
      .references(['id', 'organization_id'])
      .inTable('projects')
      .onDelete('CASCADE');
    t.index(['organization_id', 'project_id']);
  });

  await knex.schema.createTable('service_accounts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('role').notNullable();
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_id', 'name']);
    t.unique(['id', 'organization_id']);
  });
  await knex.raw(
    "ALTER TABLE service_accounts ADD CONSTRAINT service_accounts_role_ck CHECK (role IN ('viewer','member','admin'))",
  );

  await knex.schema.createTable('service_account_tokens', (t) => {
    credentialColumns(knex, t);
    t.uuid('service_account_id').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.specificType('allowed_actions', 'text[]').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.foreign(['service_account_id', 'organization_id'])
      .references(['id', 'organization_id'])
      .inTable('service_accounts')
      .onDelete('CASCADE');
    t.index(['organization_id', 'service_account_id']);
  });

  await knex.schema.alterTable('resource_grants', (t) => {
    t.uuid('service_account_id');
    t.foreign(['service_account_id', 'organization_id'])
      .references(['id', 'organization_id'])
      .inTable('service_accounts')
      .onDelete('CASCADE');
  });
  await knex.raw(`
    ALTER TABLE resource_grants
      DROP CONSTRAINT resource_grants_subject_ck,
      ADD CONSTRAINT resource_grants_subject_ck CHECK (
        (subject_type = 'user' AND user_id IS NOT NULL AND team_id IS NULL AND service_account_id IS NULL)
        OR (subject_type = 'team' AND team_id IS NOT NULL AND user_id IS NULL AND service_account_id IS NULL)
        OR (subject_type = 'service_account' AND service_account_id IS NOT NULL AND user_id IS NULL
            AND team_id IS NULL))
  `);
  await knex.raw(
    'CREATE UNIQUE INDEX resource_grants_service_account_uq ON resource_grants (organization_id, service_account_id, resource_type, resource_id) WHERE service_account_id IS NOT NULL',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DELETE FROM resource_grants WHERE subject_type = 'service_account'");
  await knex.raw(`
    ALTER TABLE resource_grants
      DROP CONSTRAINT resource_grants_subject_ck,
      ADD CONSTRAINT resource_grants_subject_ck CHECK (
        (subject_type = 'user' AND user_id IS NOT NULL AND team_id IS NULL)
        OR (subject_type = 'team' AND team_id IS NOT NULL AND user_id IS NULL))
  `);
  await knex.schema.alterTable('resource_grants', (t) => t.dropColumn('service_account_id'));
  await knex.schema.dropTableIfExists('service_account_tokens');
  await knex.schema.dropTableIfExists('service_accounts');
  await knex.schema.dropTableIfExists('project_api_keys');
}
