import type { Knex } from 'knex';

/**
 * Invitations, teams, resource grants and the organization's platform configuration (environments, tenants).
 * Composite foreign keys keep rows of one organization together: a team member or a user grant must be a membership
 * of the same organization, so removing a member (or deleting the organization) removes them in the same statement.
 */
type Table = Knex.CreateTableBuilder;

function timestamps(knex: Knex, t: Table): void {
  t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
}

/** A generated uuid id and the owning organization: the rows go with the organization. */
function orgOwned(knex: Knex, t: Table): void {
  t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
}

/** A catalogue entry of the organization (teams, environments, tenants): slug unique in the organization, a name. */
function catalogueTable(knex: Knex, name: string, columns: (t: Table) => void): Knex.SchemaBuilder {
  return knex.schema.createTable(name, (t) => {
    orgOwned(knex, t);
    t.text('slug').notNullable();
    t.text('name').notNullable();
    columns(t);
    timestamps(knex, t);
    t.unique(['organization_id', 'slug']);
  });
}

/** The user must be a member of the row's organization; removing the membership removes the row. */
function ofMember(t: Table): void {
  t.foreign(['organization_id', 'user_id'])
    .references(['organization_id', 'user_id'])
    .inTable('memberships')
    .onDelete('CASCADE');
}

/** The team must belong to the row's organization; deleting the team removes the row. */
function ofTeam(t: Table): void {
  t.foreign(['team_id', 'organization_id']).references(['id', 'organization_id']).inTable('teams').onDelete('CASCADE');
}

const description = (t: Table) => void t.text('description').notNullable().defaultTo('');

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('invitations', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('email').notNullable();
    t.text('role').notNullable();
    // SHA-256 of the token: the token itself is only ever in the email.
    t.text('token_hash').notNullable().unique();
    t.text('status').notNullable().defaultTo('pending');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.uuid('invited_by').references('users.id').onDelete('SET NULL');
    t.uuid('accepted_by').references('users.id').onDelete('SET NULL');
    t.text('workflow_id').notNullable();
    t.integer('reissue_count').notNullable().defaultTo(0);
    timestamps(knex, t);
    t.index(['organization_id', 'status']);
  });
  await knex.raw(
    "ALTER TABLE invitations ADD CONSTRAINT invitations_role_ck CHECK (role IN ('owner','admin','member','viewer'))",
  );
  await knex.raw(
    "ALTER TABLE invitations ADD CONSTRAINT invitations_status_ck CHECK (status IN ('pending','accepted','revoked','expired'))",
  );
  // One open invitation per address and organization: a retried send finds the first one.
  await knex.raw(
    "CREATE UNIQUE INDEX invitations_pending_email_uq ON invitations (organization_id, lower(email)) WHERE status = 'pending'",
  );

  await catalogueTable(knex, 'teams', (t) => {
    description(t);
    // Target of the composite foreign keys that keep team members and team grants in the team's organization.
    t.unique(['id', 'organization_id']);
  });

  await knex.schema.createTable('team_members', (t) => {
    t.uuid('team_id').notNullable();
    t.uuid('organization_id').notNullable();
    t.uuid('user_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['team_id', 'user_id']);
    ofTeam(t);
    ofMember(t);
    t.index(['organization_id', 'user_id']);
  });

  await knex.schema.createTable('resource_grants', (t) => {
    orgOwned(knex, t);
    t.text('subject_type').notNullable();
    t.uuid('user_id');
    t.uuid('team_id');
    t.text('resource_type').notNullable();
    t.text('resource_id').notNullable();
    t.text('role').notNullable();
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    timestamps(knex, t);
    ofMember(t);
    ofTeam(t);
    t.index(['organization_id', 'resource_type', 'resource_id']);
  });
  await knex.raw(`
    ALTER TABLE resource_grants
      ADD CONSTRAINT resource_grants_subject_ck CHECK (
        (subject_type = 'user' AND user_id IS NOT NULL AND team_id IS NULL)
        OR (subject_type = 'team' AND team_id IS NOT NULL AND user_id IS NULL)),
      ADD CONSTRAINT resource_grants_resource_type_ck CHECK (resource_type IN ('cluster','project','tenant')),
      ADD CONSTRAINT resource_grants_role_ck CHECK (role IN ('admin','member','viewer'))
  `);
  await knex.raw(
    'CREATE UNIQUE INDEX resource_grants_user_uq ON resource_grants (organization_id, user_id, resource_type, resource_id) WHERE user_id IS NOT NULL',
  );
  await knex.raw(
    'CREATE UNIQUE INDEX resource_grants_team_uq ON resource_grants (organization_id, team_id, resource_type, resource_id) WHERE team_id IS NOT NULL',
  );

  await catalogueTable(knex, 'org_environments', (t) => {
    t.boolean('production').notNullable().defaultTo(false);
    t.integer('position').notNullable();
  });
  // Deferred so a reorder can swap positions inside one transaction.
  await knex.raw(
    'ALTER TABLE org_environments ADD CONSTRAINT org_environments_position_uq UNIQUE (organization_id, position) DEFERRABLE INITIALLY DEFERRED',
  );

  await catalogueTable(knex, 'org_tenants', description);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('org_tenants');
  await knex.schema.dropTableIfExists('org_environments');
  await knex.schema.dropTableIfExists('resource_grants');
  await knex.schema.dropTableIfExists('team_members');
  await knex.schema.dropTableIfExists('teams');
  await knex.schema.dropTableIfExists('invitations');
}
