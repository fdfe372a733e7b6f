import type { Knex } from 'knex';

/**
 * Identity: email tokens, session families with rotating refresh tokens, MFA (TOTP, recovery codes, login
 * challenges), OAuth identities and states, and the counters behind rate limits and login back-off.
 * Every secret is stored as a hash (tokens, codes) or encrypted (TOTP seeds).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    // Access tokens issued before this instant are refused (password change/reset, account disabled).
    t.timestamp('tokens_valid_after', { useTz: true });
  });

  await knex.schema.createTable('email_tokens', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('purpose').notNullable();
    t.text('token_hash').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.index(['user_id', 'purpose']);
  });
  await knex.raw(
    "ALTER TABLE email_tokens ADD CONSTRAINT email_tokens_purpose_ck CHECK (purpose IN ('verify_email','password_reset'))",
  );

  await knex.schema.createTable('session_families', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('organization_id').references('organizations.id').onDelete('SET NULL');
    t.text('auth_method').notNullable();
    t.text('user_agent').notNullable().defaultTo('');
    t.text('client_address').notNullable().defaultTo('');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true });
    t.text('revoked_reason');
    t.index(['user_id']);
  });

  await knex.schema.createTable('refresh_tokens', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('family_id').notNullable().references('session_families.id').onDelete('CASCADE');
    t.text('token_hash').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('idle_expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.index(['family_id']);
  });

  await knex.schema.createTable('user_mfa', (t) => {
    t.uuid('user_id').primary().references('users.id').onDelete('CASCADE');
    // AES-256-GCM sealed seeds; pending = set up but not yet confirmed with a first code.
    t.text('totp_secret');
    t.text('pending_secret');
    t.timestamp('pending_created_at', { useTz: true });
    t.timestamp('enabled_at', { useTz: true });
    t.bigInteger('last_used_step');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('mfa_recovery_codes', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('lookup').notNullable();
    t.text('code_hash').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('used_at', { useTz: true });
    t.unique(['user_id', 'lookup']);
  });

  await knex.schema.createTable('mfa_challenges', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('token_hash').notNullable().unique();
    t.text('auth_method').notNullable();
    t.text('return_to');
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('email_code_hash');
    t.timestamp('email_code_expires_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('consumed_at', { useTz: true });
    t.index(['user_id']);
  });

  await knex.schema.createTable('oauth_identities', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('provider').notNullable();
    t.text('subject').notNullable();
    t.text('email').notNullable().defaultTo('');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_login_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['provider', 'subject']);
    t.index(['user_id']);
  });

  await knex.schema.createTable('oauth_states', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('state_hash').notNullable().unique();
    t.text('browser_hash').notNullable();
    t.text('provider').notNullable();
    t.text('code_verifier').notNullable();
    t.text('nonce').notNullable();
    t.text('return_to').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
  });

  await knex.schema.createTable('rate_limit_counters', (t) => {
    t.text('key').primary();
    t.timestamp('window_start', { useTz: true }).notNullable();
    t.integer('hits').notNullable();
  });

  await knex.schema.createTable('login_failures', (t) => {
    // Keyed by a hash of the normalised email, so unknown and known accounts throttle alike (no enumeration).
    t.text('key').primary();
    t.integer('consecutive').notNullable();
    t.timestamp('last_failure_at', { useTz: true }).notNullable();
    t.timestamp('blocked_until', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'login_failures',
    'rate_limit_counters',
    'oauth_states',
    'oauth_identities',
    'mfa_challenges',
    'mfa_recovery_codes',
    'user_mfa',
    'refresh_tokens',
    'session_families',
    'email_tokens',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.schema.alterTable('users', (t) => t.dropColumn('tokens_valid_after'));
}
