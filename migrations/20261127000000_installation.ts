import type { Knex } from 'knex';

/**
 * Issue 43, H2: the installation's identity. One row, made once: its id is written into the Git volume's marker and
 * each repository's, so a process proves a folder belongs to this installation (and not to another deployment, a
 * backup or an empty mount) before it reads or writes there (docs/operations.md, "Identity, never location").
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('installation', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    // One row only: the column is always true and unique.
    t.boolean('singleton').notNullable().defaultTo(true).unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // When a process first marked a Git volume as this installation's: from then on a folder without the marker is
    // never claimed again (an empty or wrong mount is refused, not adopted).
    t.timestamp('git_volume_claimed_at', { useTz: true });
  });
  await knex.raw('ALTER TABLE installation ADD CONSTRAINT installation_one_row CHECK (singleton)');
  await knex('installation').insert({});
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('installation');
}
