import type { Knex } from 'knex';

/**
 * Issue 49, charts: a subscription follows a workload's image (`image`) or, for a chart-based workload, its chart
 * (`chart`: the new version is the target's `chartVersion`). Image-update marks (newest wins per target) are kept per
 * field, so a chart update and an image update of one target do not supersede each other.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('watch_subscriptions', (t) => {
    t.text('kind').notNullable().defaultTo('image');
  });
  await knex.raw(
    `ALTER TABLE watch_subscriptions ADD CONSTRAINT watch_subscriptions_kind CHECK (kind IN ('image', 'chart'))`,
  );
  await knex.schema.alterTable('image_update_marks', (t) => {
    t.text('field').notNullable().defaultTo('tag');
  });
  await knex.raw('ALTER TABLE image_update_marks DROP CONSTRAINT image_update_marks_pkey');
  await knex.raw('ALTER TABLE image_update_marks ADD PRIMARY KEY (project_id, workload, tenant, environment, field)');
}

export async function down(knex: Knex): Promise<void> {
  await knex('image_update_marks').whereNot({ field: 'tag' }).delete();
  await knex.raw('ALTER TABLE image_update_marks DROP CONSTRAINT image_update_marks_pkey');
  await knex.raw('ALTER TABLE image_update_marks ADD PRIMARY KEY (project_id, workload, tenant, environment)');
  await knex.schema.alterTable('image_update_marks', (t) => {
    t.dropColumn('field');
  });
  await knex.schema.alterTable('watch_subscriptions', (t) => {
    t.dropColumn('kind');
  });
}
