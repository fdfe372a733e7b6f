import type { Knex } from 'knex';

/**
 * Outbound notifications (issue 13): channels (project HTTP webhooks and the organization's other channel types, their
 * secrets sealed at rest), the claim row that makes each (event, channel, recipient) delivery happen at most once, the
 * delivery log (one row per attempt), the dispatcher's cursor over the domain-event outbox, in-app notifications,
 * personal preferences, and escalation policies with their incidents.
 */
export async function up(knex: Knex): Promise<void> {
  const timestamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };

  await knex.schema.createTable('notification_channels', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    // Set for project webhooks and for channels scoped to one project; null: every project of the organization.
    t.uuid('project_id').references('projects.id').onDelete('CASCADE');
    t.text('type').notNullable();
    t.text('name').notNullable();
    // Non-secret settings of the type (URL, recipients, ...); secrets live sealed in `secret_sealed` only.
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.text('secret_sealed');
    t.specificType('events', 'text[]').notNullable();
    t.boolean('active').notNullable().defaultTo(false);
    // Opt-in bounded retries (a documented deviation from "one attempt"); 1 is the spec's single attempt.
    t.integer('retry_attempts').notNullable().defaultTo(1);
    t.integer('retry_backoff_ms').notNullable().defaultTo(0);
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    timestamps(t);
    t.index(['organization_id', 'project_id']);
  });
  await knex.raw(
    `ALTER TABLE notification_channels ADD CONSTRAINT notification_channels_type_ck CHECK (type IN
     ('webhook','email','chat','chat2','cards','paging','alerts'))`,
  );

  // Claimed before the send: a second dispatch of the same event to the same channel and recipient finds it taken.
  await knex.schema.createTable('notification_sends', (t) => {
    t.text('idempotency_key').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('notification_deliveries', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    // The log lists newest first by this order.
    t.bigIncrements('seq', { primaryKey: false });
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('channel_id').notNullable().references('notification_channels.id').onDelete('CASCADE');
    t.text('event').notNullable();
    t.uuid('event_id');
    t.text('recipient').notNullable().defaultTo('');
    t.integer('attempt').notNullable();
    t.text('status').notNullable();
    t.integer('response_status');
    t.text('response_body');
    t.text('error');
    t.integer('duration_ms').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['channel_id', 'seq']);
  });
  await knex.raw(
    `ALTER TABLE notification_deliveries ADD CONSTRAINT notification_deliveries_status_ck CHECK (status IN
     ('success','failed','timeout','refused'))`,
  );

  await knex.schema.createTable('notification_cursors', (t) => {
    t.uuid('organization_id').primary().references('organizations.id').onDelete('CASCADE');
    t.bigInteger('last_seq').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('notifications', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.bigIncrements('seq', { primaryKey: false });
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('event_id').notNullable();
    t.text('event').notNullable();
    t.uuid('project_id');
    t.text('title').notNullable();
    t.jsonb('payload').notNullable().defaultTo('{}');
    t.timestamp('read_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['event_id', 'user_id']);
    t.index(['organization_id', 'user_id', 'seq']);
  });

  await knex.schema.createTable('notification_preferences', (t) => {
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    // Event names or category names; channels per event: { "<event or category>": ["in_app", "email"] }.
    t.specificType('events', 'text[]').notNullable();
    t.jsonb('channels').notNullable().defaultTo('{}');
    t.specificType('project_ids', 'uuid[]');
    t.integer('digest_interval_ms');
    timestamps(t);
    t.primary(['organization_id', 'user_id']);
  });

  await knex.schema.createTable('escalation_policies', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.specificType('trigger_events', 'text[]').notNullable();
    // Ordered tiers [{ targets: [{ kind: 'channel'|'user'|'team', id }] }], repeat, business hours: the record as sent.
    t.jsonb('tiers').notNullable();
    t.integer('timeout_ms').notNullable();
    t.integer('repeat_count').notNullable().defaultTo(0);
    t.integer('repeat_interval_ms').notNullable().defaultTo(0);
    t.jsonb('aggregation').notNullable().defaultTo('{}');
    t.integer('cooldown_ms').notNullable().defaultTo(0);
    t.jsonb('business_hours');
    timestamps(t);
    t.unique(['organization_id', 'name']);
  });

  await knex.schema.createTable('escalation_incidents', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.bigIncrements('seq', { primaryKey: false });
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('policy_id').notNullable().references('escalation_policies.id').onDelete('CASCADE');
    t.text('dedup_key').notNullable();
    t.text('status').notNullable().defaultTo('open');
    t.text('workflow_id').notNullable();
    t.integer('event_count').notNullable().defaultTo(1);
    t.text('acknowledged_by');
    t.timestamp('acknowledged_at', { useTz: true });
    t.timestamp('resolved_at', { useTz: true });
    timestamps(t);
    t.index(['organization_id', 'policy_id', 'dedup_key']);
  });
  await knex.raw(
    `ALTER TABLE escalation_incidents ADD CONSTRAINT escalation_incidents_status_ck CHECK (status IN
     ('open','acknowledged','resolved'))`,
  );
  // Aggregation: one open incident per policy and key; similar events join it.
  await knex.raw(
    `CREATE UNIQUE INDEX escalation_incidents_open_uq ON escalation_incidents (policy_id, dedup_key) WHERE status = 'open'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'escalation_incidents',
    'escalation_policies',
    'notification_preferences',
    'notifications',
    'notification_cursors',
    'notification_deliveries',
    'notification_sends',
    'notification_channels',
  ]) {
    await knex.schema.dropTable(table);
  }
}
