import type { Knex } from 'knex';

/**
 * When the first request of a signed body was answered (issue 34, WH-3): the same bytes sent again after that get the
 * recorded answer (200 or 202, its body and status URL) and commit nothing; sent while the first is still being
 * answered they get 409 "in progress".
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_requests', (t) => {
    t.timestamp('answered_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_requests', (t) => {
    t.dropColumn('answered_at');
  });
}
