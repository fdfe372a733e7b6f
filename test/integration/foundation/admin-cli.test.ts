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
