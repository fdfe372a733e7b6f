import type { Knex } from 'knex';

/**
 * Row and workflow as one unit: `workflow_started_at` is set once the invitation's workflow is known to run, so a
 * reconciler can start what a crash left unstarted. The invitation mail is an activity of that workflow: the token
 * waits sealed (AES-256-GCM, bound to the invitation id) until its mail is sent, and `mailed_token_hash` records which
 * token the last mail carried, so a retried activity never mails the same token twice.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invitations', (t) => {
    t.timestamp('workflow_started_at', { useTz: true });
    t.text('sealed_token');
    t.text('mailed_token_hash');
    t.timestamp('mail_sent_at', { useTz: true });
    t.text('mail_error');
  });
  // Rows from before this migration were created by a send that started their workflow (or by nothing at all, which
  // the reconciler would not be able to mail for: their token is gone).
  await knex('invitations').update({
    workflow_started_at: knex.ref('created_at'),
    mailed_token_hash: knex.ref('token_hash'),
  });
  await knex.raw(
    "CREATE INDEX invitations_unstarted_ix ON invitations (created_at) WHERE workflow_started_at IS NULL AND status = 'pending'",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invitations', (t) => {
    t.dropColumn('workflow_started_at');
    t.dropColumn('sealed_token');
    t.dropColumn('mailed_token_hash');
    t.dropColumn('mail_sent_at');
    t.dropColumn('mail_error');
  });
}
