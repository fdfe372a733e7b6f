import type { Knex } from 'knex';

/**
 * An invitation sent with a service account token records that token: the invitation stays acceptable only while
 * the token is live and still allowed to send it (docs/security.md A-81). No foreign key, so a deleted token or
 * account leaves the id behind and the accept check finds nothing, which ends the invitation.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invitations', (t) => {
    t.uuid('invited_by_token_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invitations', (t) => {
    t.dropColumn('invited_by_token_id');
  });
}
