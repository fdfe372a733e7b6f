import type { Knex } from 'knex';

/**
 * What an acknowledged request still waits for (issue 43): while its commit waits out a Git storage outage, the status
 * URL says so (`waiting`: the reason and since when it has been retrying). Shown only while the request is unfinished.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_requests', (t) => {
    t.text('waiting');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_requests', (t) => {
    t.dropColumn('waiting');
  });
}
