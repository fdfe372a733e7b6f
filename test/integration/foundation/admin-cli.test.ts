import { createAuditService } from '../../../src/audit/audit-service';
import type { Tx } from '../../../src/db/knex';
import { runScript } from '../../helpers/child-process';
import { createTestDatabase, type TestDatabase } from '../../helpers/test-db';

let database: TestDatabase;
const env = () => ({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' });

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('operator CLI (npm run admin)', () => {
  it('creates a verified user, an organization with its owner, and changes the plan, all audited', async () => {
    const user = await runScript(
      'scripts/admin.ts',
      ['create-user', '--email', 'Ops@Example.test', '--password', 'correct horse battery', '--name', 'Ops'],
      env(),
    );
    expect(user.code).toBe(0);
    expect(JSON.parse(user.output)).toMatchObject({ email: 'ops@example.test', emailVerified: true });

    const org = await runScript(
      'scripts/admin.ts',
      ['create-org', '--slug', 'acme', '--name', 'Acme', '--owner', 'ops@example.test', '--plan', 'pro'],
      env(),
    );
    expect(org.code).toBe(0);
    expect(JSON.parse(org.output)).toMatchObject({ slug: 'acme', plan: 'pro' });

    const plan = await runScript('scripts/admin.ts', ['set-plan', '--org', 'acme', '--plan', 'enterprise'], env());
    expect(plan.code).toBe(0);

    const row = await database.db('organizations').where({ slug: 'acme' }).first('plan', 'id');
    expect(row.plan).toBe('enterprise');
    const member = await database.db('memberships').where({ organization_id: row.id }).first('role');
    expect(member.role).toBe('owner');
    const actions = (await database.db('audit_log').orderBy('seq').pluck('action')) as string[];
    expect(actions).toEqual(['user.create', 'organization.create', 'organization.plan.change']);

    const verify = await runScript('scripts/admin.ts', ['verify-audit'], env());
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.output)).toMatchObject({ ok: true, entries: 3 });
  });

  it('rejects bad input with a clear message and changes nothing', async () => {
    const badPlan = await runScript('scripts/admin.ts', ['set-plan', '--org', 'acme', '--plan', 'gold'], env());
    expect(badPlan.code).toBe(2);
    expect(badPlan.output).toContain('plan must be one of free, pro, enterprise');
    const missing = await runScript(
      'scripts/admin.ts',
      ['create-org', '--slug', 'x1', '--name', 'X', '--owner', 'nobody@example.test'],
      env(),
    );
    expect(missing.code).toBe(2);
    expect(missing.output).toContain('no user with email nobody@example.test');
    expect(await database.db('organizations').where({ slug: 'x1' }).first()).toBeUndefined();
    const usage = await runScript('scripts/admin.ts', ['explode'], env());
    expect(usage.code).toBe(2);
    expect(usage.output).toContain('usage: npm run admin');
  });
});

describe('least-privilege application role (docs/security.md AU-1, A-44)', () => {
  const role = `app_${Date.now().toString(36)}`;
  afterAll(async () => {
    await database.db.raw('DROP OWNED BY ?? ', [role]).catch(() => undefined);
    await database.db.raw('DROP ROLE IF EXISTS ??', [role]);
  });

  it('lets the app role insert and read audit entries but never update, delete or truncate them', async () => {
    await database.db.raw('CREATE ROLE ?? NOLOGIN', [role]);
    const granted = await runScript('scripts/admin.ts', ['grant-app-role', '--role', role], env());
    expect(granted.code).toBe(0);
    expect(JSON.parse(granted.output)).toMatchObject({ role });

    const asApp = <T>(fn: (trx: Tx) => Promise<T>) =>
      database.db.transaction(async (trx) => {
        await trx.raw('SET LOCAL ROLE ??', [role]);
        return fn(trx);
      });
    const audit = createAuditService(database.db);
    const entry = await asApp((trx) =>
      audit.append(trx, { organizationId: null, actorType: 'system', action: 'x.y', category: 'system' }),
    );
    expect(await asApp((trx) => trx('audit_log').where({ id: entry.id }).first('id'))).toEqual({ id: entry.id });
    await expect(asApp((trx) => trx('audit_log').where({ id: entry.id }).update({ action: 'z' }))).rejects.toThrow(
      /permission denied/,
    );
    await expect(asApp((trx) => trx('audit_log').where({ id: entry.id }).delete())).rejects.toThrow(
      /permission denied/,
    );
    await expect(asApp((trx) => trx.raw('TRUNCATE audit_log'))).rejects.toThrow(/permission denied/);
    // Other tables stay writable for the app.
    await asApp((trx) => trx('users').where({ email: 'nobody' }).update({ name: 'x' }));
  });

  it('refuses a role name that is not an identifier, or a role that does not exist', async () => {
    const bad = await runScript('scripts/admin.ts', ['grant-app-role', '--role', 'x; DROP TABLE users'], env());
    expect(bad.code).toBe(2);
    expect(bad.output).toContain('role must be a lowercase PostgreSQL identifier');
    const missing = await runScript('scripts/admin.ts', ['grant-app-role', '--role', 'no_such_role_here'], env());
    expect(missing.code).toBe(2);
    expect(missing.output).toContain('no PostgreSQL role no_such_role_here');
  });
});
