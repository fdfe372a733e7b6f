import type { Knex } from 'knex';

/**
 * Core tables: users, organizations, memberships and the append-only, hash-chained audit log.
 * The audit log is protected by PostgreSQL itself: row triggers refuse UPDATE and DELETE, a statement trigger refuses
 * TRUNCATE, and both are ENABLE ALWAYS so `session_replication_role = replica` cannot silence them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pgcrypto');

  await knex.schema.createTable('users', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('email').notNullable();
    t.text('name').notNullable().defaultTo('');
    t.text('password_hash');
    t.timestamp('email_verified_at', { useTz: true });
    t.boolean('is_instance_admin').notNullable().defaultTo(false);
    t.timestamp('disabled_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE UNIQUE INDEX users_email_lower_uq ON users (lower(email))');

  await knex.schema.createTable('organizations', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('slug').notNullable().unique();
    t.text('name').notNullable();
    t.text('plan').notNullable().defaultTo('free');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    "ALTER TABLE organizations ADD CONSTRAINT organizations_plan_ck CHECK (plan IN ('free','pro','enterprise'))",
  );

  await knex.schema.createTable('memberships', (t) => {
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('role').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['organization_id', 'user_id']);
    t.index(['user_id']);
  });
  await knex.raw(
    "ALTER TABLE memberships ADD CONSTRAINT memberships_role_ck CHECK (role IN ('owner','admin','member','viewer'))",
  );

  await knex.schema.createTable('audit_log', (t) => {
    t.bigIncrements('seq').primary();
    t.uuid('id').notNullable().unique().defaultTo(knex.raw('gen_random_uuid()'));
    // Chain key: one hash chain per organization ('' for instance-level entries), so tenants never contend.
    t.text('chain').notNullable();
    t.uuid('organization_id');
    t.uuid('project_id');
    t.uuid('tenant_id');
    t.uuid('user_id');
    t.text('actor_type').notNullable();
    t.text('actor').notNullable().defaultTo('');
    t.text('action').notNullable();
    t.text('category').notNullable();
    t.text('resource_type');
    t.text('resource_id');
    t.text('status').notNullable();
    t.jsonb('details').notNullable().defaultTo('{}');
    t.text('git_commit_sha');
    t.text('workflow_id');
    t.text('request_id');
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
    t.text('prev_hash').notNullable();
    t.text('hash').notNullable();
    t.index(['organization_id', 'created_at']);
    t.index(['chain', 'seq']);
    t.index(['organization_id', 'action']);
    t.index(['organization_id', 'resource_type', 'resource_id']);
  });
  await knex.raw(
    "ALTER TABLE audit_log ADD CONSTRAINT audit_actor_type_ck CHECK (actor_type IN ('user','service_account','system'))",
  );
  await knex.raw(
    "ALTER TABLE audit_log ADD CONSTRAINT audit_status_ck CHECK (status IN ('success','failure','blocked'))",
  );
  await knex.raw(`
    CREATE FUNCTION audit_log_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
  `);
  await knex.raw(
    'CREATE TRIGGER audit_log_no_update_delete BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_immutable()',
  );
  await knex.raw(
    'CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_immutable()',
  );
  await knex.raw('ALTER TABLE audit_log ENABLE ALWAYS TRIGGER audit_log_no_update_delete');
  await knex.raw('ALTER TABLE audit_log ENABLE ALWAYS TRIGGER audit_log_no_truncate');
  await knex.raw('REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM PUBLIC');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS audit_log');
  await knex.raw('DROP FUNCTION IF EXISTS audit_log_immutable()');
  await knex.schema.dropTableIfExists('memberships');
  await knex.schema.dropTableIfExists('organizations');
  await knex.schema.dropTableIfExists('users');
}
