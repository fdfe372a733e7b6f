import type { AuditService } from '../audit/audit-service';
import type { Db } from '../db/knex';
import { InvalidInput, NotFound } from '../errors';

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Least privilege for the API and worker (docs/security.md AU-1): the role they connect as may read and write the
 * platform's tables but only SELECT and INSERT the audit log, so even a compromised process cannot rewrite history.
 * Migrations keep running as the owner. Idempotent; rerun it after migrations that add tables.
 */
export async function grantAppRole(
  deps: { db: Db; audit: AuditService },
  role: string,
): Promise<{ role: string; tables: number }> {
  const { db } = deps;
  if (!ROLE_NAME.test(role)) throw new InvalidInput('role must be a lowercase PostgreSQL identifier');
  const exists = await db.raw('SELECT 1 FROM pg_roles WHERE rolname = ?', [role]);
  if (exists.rows.length === 0)
    throw new NotFound(`no PostgreSQL role ${role}: create it first (CREATE ROLE ${role} LOGIN PASSWORD …)`);
  return db.transaction(async (trx) => {
    const [{ db: database }] = (await trx.raw('SELECT current_database() AS db')).rows as [{ db: string }];
    await trx.raw('GRANT CONNECT ON DATABASE ?? TO ??', [database, role]);
    await trx.raw('GRANT USAGE ON SCHEMA public TO ??', [role]);
    await trx.raw('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ??', [role]);
    await trx.raw('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ??', [role]);
    await trx.raw('REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM ??', [role]);
    await trx.raw('REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON knex_migrations, knex_migrations_lock FROM ??', [role]);
    const tables = (await trx.raw("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'")).rows as [
      { n: number },
    ];
    await deps.audit.append(trx, {
      organizationId: null,
      actorType: 'system',
      actor: 'operator-cli',
      action: 'system.database.app_role.grant',
      category: 'system',
      resourceType: 'database_role',
      resourceId: role,
      details: { database, tables: tables[0].n, auditLog: 'SELECT, INSERT only' },
    });
    return { role, tables: tables[0].n };
  });
}
