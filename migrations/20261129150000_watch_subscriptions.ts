import type { Knex } from 'knex';

/**
 * Issue 49: watch subscriptions (a workload follows a repository's new versions under a policy) and discoveries (a
 * tag seen in a watched repository, with what became of each subscription). `source` says where the repository is:
 * `platform` (the organization's own registry) for now; an external registry arrives as another source with its
 * `registry_id`, which the check below keeps null until a later migration relaxes it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('watch_subscriptions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.uuid('workload_id').notNullable().references('workloads.id').onDelete('CASCADE');
    t.text('source').notNullable().defaultTo('platform');
    t.uuid('registry_id');
    t.text('repository').notNullable();
    t.jsonb('policy').notNullable();
    t.specificType('environments', 'text[]').notNullable();
    // Empty: every tenant of the project.
    t.specificType('tenants', 'text[]').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['workload_id', 'source', 'repository']);
    t.index(['organization_id', 'source', 'repository']);
  });
  await knex.raw(
    `ALTER TABLE watch_subscriptions ADD CONSTRAINT watch_subscriptions_source
       CHECK (source = 'platform' AND registry_id IS NULL)`,
  );

  await knex.schema.createTable('watch_discoveries', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('source').notNullable().defaultTo('platform');
    t.uuid('registry_id');
    t.text('repository').notNullable();
    t.text('tag').notNullable();
    t.text('digest').notNullable();
    t.timestamp('found_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // `pending` until the subscriptions it concerns were evaluated (a reconciler finishes what a crash left).
    t.text('status').notNullable().defaultTo('pending');
    // Per subscription: the choice, the targets updated, the targets skipped with their reason.
    t.jsonb('outcomes').notNullable().defaultTo('[]');
    t.timestamp('evaluated_at', { useTz: true });
    t.index(['organization_id', 'repository', 'found_at']);
    t.index(['status', 'found_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('watch_discoveries');
  await knex.schema.dropTable('watch_subscriptions');
}
