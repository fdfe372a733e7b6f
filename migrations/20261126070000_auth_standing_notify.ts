import type { Knex } from 'knex';

/**
 * Issue 34 item 5: API processes cache a user's standing (enabled, tokens valid after, live sessions, memberships) for
 * seconds. Every change to those rows notifies channel `auth_standing` with the user's id at commit, so each process
 * forgets that user's cached standing at once (src/iam/standing-cache.ts).
 */
const TABLES = ['users', 'session_families', 'memberships'] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION notify_auth_standing() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE changed record;
    BEGIN
      IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
      IF TG_TABLE_NAME = 'users' THEN
        PERFORM pg_notify('auth_standing', changed.id::text);
      ELSE
        PERFORM pg_notify('auth_standing', changed.user_id::text);
      END IF;
      RETURN NULL;
    END $$`);
  for (const table of TABLES) {
    await knex.raw(`CREATE TRIGGER ${table}_auth_standing AFTER INSERT OR UPDATE OR DELETE ON ${table}
      FOR EACH ROW EXECUTE FUNCTION notify_auth_standing()`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) await knex.raw(`DROP TRIGGER ${table}_auth_standing ON ${table}`);
  await knex.raw('DROP FUNCTION notify_auth_standing()');
}
