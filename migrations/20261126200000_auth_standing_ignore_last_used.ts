import type { Knex } from 'knex';

/**
 * Issue 34 item 5: every token refresh writes `session_families.last_used_at`, and the `auth_standing` trigger
 * (migration 20261126070000) notified for it, so under any refresh traffic every API process kept forgetting the
 * standing it had cached. A session's standing does not depend on when it was last used: an update that changes only
 * `last_used_at` (or nothing) no longer notifies; inserts, deletes and any other change (revocation, expiry, the
 * active organization) still do.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER session_families_auth_standing ON session_families');
  await knex.raw(`CREATE TRIGGER session_families_auth_standing AFTER INSERT OR DELETE ON session_families
    FOR EACH ROW EXECUTE FUNCTION notify_auth_standing()`);
  await knex.raw(`CREATE TRIGGER session_families_auth_standing_update AFTER UPDATE ON session_families
    FOR EACH ROW
    WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
    EXECUTE FUNCTION notify_auth_standing()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER session_families_auth_standing_update ON session_families');
  await knex.raw('DROP TRIGGER session_families_auth_standing ON session_families');
  await knex.raw(`CREATE TRIGGER session_families_auth_standing AFTER INSERT OR UPDATE OR DELETE ON session_families
    FOR EACH ROW EXECUTE FUNCTION notify_auth_standing()`);
}
