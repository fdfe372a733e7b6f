import type { Knex } from 'knex';

/**
 * Issue 43, M2: the deployment's key canary. The first process seals a random nonce with MFA_ENCRYPTION_KEY and signs
 * it with its JWT key; every later process opens and verifies it at start and on each readiness probe, so a process
 * configured with other keys is not ready instead of sealing secrets the others cannot open or issuing tokens they
 * refuse. `signatures` maps a signing key's id (its public key's thumbprint) to its signature of the nonce: a key
 * rotation adds one (src/identity/key-canary.ts), so processes on the old and the new key both stay ready.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('key_canary', (t) => {
    t.boolean('singleton').primary().defaultTo(true);
    t.text('nonce').notNullable();
    t.text('sealed').notNullable();
    t.jsonb('signatures').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('ALTER TABLE key_canary ADD CONSTRAINT key_canary_one_row CHECK (singleton)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('key_canary');
}
