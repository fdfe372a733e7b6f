import type { Knex } from 'knex';

/**
 * Issue 13, rest: email over SMTP configured per organization (one relay per organization; without a row its email
 * goes through the platform's SMTP_URL; the password sealed with the platform secret box, bound to the organization),
 * and throttling a channel across deliveries after a 429, 502, 503 or 504 (`throttled_until`; deliveries refused
 * while it holds are logged `throttled`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('organization_smtp_settings', (t) => {
    t.uuid('organization_id').primary().references('organizations.id').onDelete('CASCADE');
    t.text('host').notNullable();
    t.integer('port').notNullable();
    // tls: implicit TLS from the first byte (465); starttls: upgrade required before anything is sent; none: plain.
    t.text('security').notNullable();
    t.text('username');
    t.text('password_sealed');
    t.text('from_address').notNullable();
    t.uuid('updated_by');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    `ALTER TABLE organization_smtp_settings ADD CONSTRAINT organization_smtp_settings_security_ck CHECK (security IN
     ('tls','starttls','none'))`,
  );
  await knex.schema.alterTable('notification_channels', (t) => {
    t.timestamp('throttled_until', { useTz: true });
  });
  await knex.raw('ALTER TABLE notification_deliveries DROP CONSTRAINT notification_deliveries_status_ck');
  await knex.raw(
    `ALTER TABLE notification_deliveries ADD CONSTRAINT notification_deliveries_status_ck CHECK (status IN
     ('success','failed','timeout','refused','throttled'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex('notification_deliveries').where({ status: 'throttled' }).delete();
  await knex.raw('ALTER TABLE notification_deliveries DROP CONSTRAINT notification_deliveries_status_ck');
  await knex.raw(
    `ALTER TABLE notification_deliveries ADD CONSTRAINT notification_deliveries_status_ck CHECK (status IN
     ('success','failed','timeout','refused'))`,
  );
  await knex.schema.alterTable('notification_channels', (t) => {
    t.dropColumn('throttled_until');
  });
  await knex.schema.dropTable('organization_smtp_settings');
}
