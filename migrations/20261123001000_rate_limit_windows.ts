import type { Knex } from 'knex';

/**
 * Each counter remembers its own window, so one sweep can remove finished windows of every length (auth counters
 * of 15 minutes, invitation counters of an hour) without cutting a longer window short.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE rate_limit_counters ADD COLUMN window_seconds double precision NOT NULL DEFAULT 900');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE rate_limit_counters DROP COLUMN window_seconds');
}
