import type { Knex } from 'knex';

/**
 * Issue 49: external registries a workload can watch. A registry (URL and credentials sealed like the other secrets at
 * rest) is polled by one workflow; each watched repository keeps what the last poll saw (the tag list's ETag for a
 * conditional request, each tag's first sighting). Subscriptions and discoveries gain the `external` source with
 * their registry; a discovery of an external registry is recorded once per repository, tag and digest.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('watch_registries', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('url').notNullable();
    t.text('username');
    // SecretBox-sealed, bound to the registry's id.
    t.text('password_sealed');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_id', 'name']);
  });

  await knex.schema.createTable('watch_registry_repositories', (t) => {
    t.uuid('registry_id').notNullable().references('watch_registries.id').onDelete('CASCADE');
    t.text('repository').notNullable();
    t.text('etag');
    // Tag -> when a poll first saw it (ISO time): the `created` order of tags of an external registry.
    t.jsonb('tags').notNullable().defaultTo('{}');
    t.timestamp('polled_at', { useTz: true });
    t.primary(['registry_id', 'repository']);
  });

  await knex.raw('ALTER TABLE watch_subscriptions DROP CONSTRAINT watch_subscriptions_source');
  await knex.raw(
    `ALTER TABLE watch_subscriptions ADD CONSTRAINT watch_subscriptions_source
       CHECK ((source = 'platform' AND registry_id IS NULL) OR (source = 'external' AND registry_id IS NOT NULL))`,
  );
  await knex.schema.alterTable('watch_subscriptions', (t) => {
    t.foreign('registry_id').references('watch_registries.id').onDelete('CASCADE');
    t.dropUnique(['workload_id', 'source', 'repository']);
    t.index(['registry_id', 'repository']);
  });
  await knex.raw(
    `CREATE UNIQUE INDEX watch_subscriptions_workload_repository ON watch_subscriptions
       (workload_id, source, COALESCE(registry_id, '00000000-0000-0000-0000-000000000000'::uuid), repository)`,
  );

  await knex.schema.alterTable('watch_discoveries', (t) => {
    t.foreign('registry_id').references('watch_registries.id').onDelete('CASCADE');
  });
  await knex.raw(
    `CREATE UNIQUE INDEX watch_discoveries_external_once ON watch_discoveries (registry_id, repository, tag, digest)
       WHERE source = 'external'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX watch_discoveries_external_once');
  await knex.schema.alterTable('watch_discoveries', (t) => {
    t.dropForeign(['registry_id']);
  });
  await knex('watch_subscriptions').where({ source: 'external' }).delete();
  await knex('watch_discoveries').where({ source: 'external' }).delete();
  await knex.raw('DROP INDEX watch_subscriptions_workload_repository');
  await knex.schema.alterTable('watch_subscriptions', (t) => {
    t.dropIndex(['registry_id', 'repository']);
    t.unique(['workload_id', 'source', 'repository']);
    t.dropForeign(['registry_id']);
  });
  await knex.raw('ALTER TABLE watch_subscriptions DROP CONSTRAINT watch_subscriptions_source');
  await knex.raw(
    `ALTER TABLE watch_subscriptions ADD CONSTRAINT watch_subscriptions_source
       CHECK (source = 'platform' AND registry_id IS NULL)`,
  );
  await knex.schema.dropTable('watch_registry_repositories');
  await knex.schema.dropTable('watch_registries');
}
