import type { Knex } from 'knex';

/**
 * Clusters and their agents (issue 14): the cluster row with the agent's last report, one-time join tokens and agent
 * credentials (hashes only), commands queued for the agent, drift records from agent reports, and agent bindings
 * (which project, tenants and environments a cluster serves). A project environment learns whether its Kubernetes
 * version was set by a person or follows the bound cluster's agent.
 */
function ofCluster(knex: Knex, t: Knex.CreateTableBuilder): void {
  t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
  t.uuid('cluster_id').notNullable().references('clusters.id').onDelete('CASCADE');
}

const stamp = (t: Knex.CreateTableBuilder, knex: Knex, name: string) =>
  t.timestamp(name, { useTz: true }).notNullable().defaultTo(knex.fn.now());

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('clusters', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('status').notNullable().defaultTo('Disconnected');
    t.timestamp('last_heartbeat_at', { useTz: true });
    t.text('kubernetes_version');
    t.text('agent_version');
    t.text('controller_health');
    // The agent's last application sync and health report: [{name, namespace, syncStatus, revision, healthStatus}].
    t.jsonb('applications').notNullable().defaultTo('[]');
    t.timestamp('applications_reported_at', { useTz: true });
    stamp(t, knex, 'created_at');
    stamp(t, knex, 'updated_at');
    t.unique(['organization_id', 'name']);
  });
  await knex.raw(
    "ALTER TABLE clusters ADD CONSTRAINT clusters_status_ck CHECK (status IN ('Connected','Disconnected'))",
  );

  await knex.schema.createTable('cluster_join_tokens', (t) => {
    ofCluster(knex, t);
    t.text('token_hash').notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    stamp(t, knex, 'created_at');
  });

  await knex.schema.createTable('cluster_agent_credentials', (t) => {
    ofCluster(knex, t);
    t.text('credential_hash').notNullable().unique();
    // Set when a rotation supersedes it: the end of its overlap.
    t.timestamp('expires_at', { useTz: true });
    stamp(t, knex, 'created_at');
    t.index(['cluster_id']);
  });

  await knex.schema.createTable('cluster_commands', (t) => {
    ofCluster(knex, t);
    t.text('name').notNullable();
    t.jsonb('params').notNullable().defaultTo('{}');
    t.text('status').notNullable().defaultTo('queued');
    t.jsonb('result');
    t.text('requested_by').notNullable();
    stamp(t, knex, 'created_at');
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['cluster_id', 'status']);
  });
  await knex.raw(
    "ALTER TABLE cluster_commands ADD CONSTRAINT cluster_commands_status_ck CHECK (status IN ('queued','sent','succeeded','failed','expired'))",
  );

  await knex.schema.createTable('cluster_drift', (t) => {
    ofCluster(knex, t);
    // `<kind>/<namespace>/<name>` of the drifted resource.
    t.text('resource').notNullable();
    t.text('application').notNullable().defaultTo('');
    t.jsonb('fields').notNullable();
    stamp(t, knex, 'detected_at');
    stamp(t, knex, 'reported_at');
    t.timestamp('resolved_at', { useTz: true });
  });
  await knex.raw(
    'CREATE UNIQUE INDEX cluster_drift_open_uq ON cluster_drift (cluster_id, resource) WHERE resolved_at IS NULL',
  );

  await knex.schema.createTable('agent_bindings', (t) => {
    ofCluster(knex, t);
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    // Ids of project_tenants and project_environments rows; ones removed later are dropped when read.
    t.specificType('tenant_ids', 'uuid[]').notNullable().defaultTo('{}');
    t.specificType('environment_ids', 'uuid[]').notNullable().defaultTo('{}');
    stamp(t, knex, 'created_at');
    stamp(t, knex, 'updated_at');
    t.unique(['cluster_id', 'project_id']);
  });

  await knex.schema.alterTable('project_environments', (t) => {
    t.text('kubernetes_version_source').notNullable().defaultTo('manual');
  });
  await knex.raw(
    "ALTER TABLE project_environments ADD CONSTRAINT project_environments_version_source_ck CHECK (kubernetes_version_source IN ('manual','agent'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('project_environments', (t) => t.dropColumn('kubernetes_version_source'));
  for (const table of ['agent_bindings', 'cluster_drift', 'cluster_commands', 'cluster_agent_credentials']) {
    await knex.schema.dropTable(table);
  }
  await knex.schema.dropTable('cluster_join_tokens');
  await knex.schema.dropTable('clusters');
}
