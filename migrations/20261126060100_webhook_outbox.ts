import type { Knex } from 'knex';

/**
 * Inbound webhooks durable before acknowledged (issue 34): a received request keeps the work still to do (`work`: an
 * image update's batch entry for its project's workflow, or a controller report's target to tell) until that work is
 * handed over and finished, so a reconciler can hand over what a dead API process recorded but never handed over.
 * Status is `received` (recorded), `queued` (handed to Temporal), `committed` or `failed`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_requests', (t) => {
    t.jsonb('work');
  });
  await knex.raw(
    `CREATE INDEX webhook_requests_unfinished ON webhook_requests (kind, created_at) WHERE status IN ('received', 'queued')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX webhook_requests_unfinished');
  await knex.schema.alterTable('webhook_requests', (t) => {
    t.dropColumn('work');
  });
}
