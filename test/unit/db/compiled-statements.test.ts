import knex from 'knex';
import type { Queryable } from '../../../src/db/knex';
import { compiledStatements } from '../../../src/db/compiled-statements';
import { listProjects } from '../../../src/projects/project-repository';

/** A builder of the real pg dialect (compiling needs no connection); the statements it runs are recorded. */
const builder = knex({ client: 'pg' });
function recordingDb() {
  const ran: { sql: string; bindings: unknown[] }[] = [];
  const db = {
    raw: (sql: string, bindings: unknown[]) => (ran.push({ sql, bindings }), Promise.resolve({ rows: [] })),
  };
  return { db: db as unknown as Queryable, ran };
}

describe('statements compiled once per shape', () => {
  it('builds a shape once and binds each run its own values, constants kept in place', async () => {
    const { db, ran } = recordingDb();
    const statements = compiledStatements();
    let builds = 0;
    const run = (org: string, take: number) =>
      statements.rows(db, 'plain', { org, take }, (p) => {
        builds++;
        return builder('projects').where({ organization_id: p.org, kind: 'fixed' }).orderBy('slug').limit(p.take);
      });
    await run('org-a', 3);
    await run('org-b', 51);
    expect(builds).toBe(1);
    expect(ran.map((r) => r.bindings)).toEqual([
      ['org-a', 'fixed', 3],
      ['org-b', 'fixed', 51],
    ]);
    expect(ran[0]!.sql).toBe(ran[1]!.sql);
    expect(ran[0]!.sql).not.toContain('org-a');
  });

  it('keeps shapes apart', async () => {
    const { db, ran } = recordingDb();
    const statements = compiledStatements();
    await statements.rows(db, 'one', { a: 'x' }, (p) => builder('t').where('a', p.a));
    await statements.rows(db, 'two', { a: 'x', b: 'y' }, (p) => builder('t').where('a', p.a).where('b', p.b));
    expect(ran.map((r) => r.bindings)).toEqual([['x'], ['x', 'y']]);
  });

  it('serves the project listing from its compiled statement, every value bound', async () => {
    const ran: unknown[][] = [];
    // The builder's own raw fragments (no bindings) stay real; a statement run with bindings is recorded.
    const raw = (sql: string, bindings?: unknown[]) =>
      bindings === undefined ? builder.raw(sql) : (ran.push(bindings), Promise.resolve({ rows: [] }));
    const db = new Proxy(builder, { get: (target, key) => (key === 'raw' ? raw : Reflect.get(target, key)) });
    await listProjects(db, 'org-a', { q: 'x%' }, { limit: 2 });
    await listProjects(db, 'org-b', { q: 'y_' }, { limit: 5 });
    expect(ran).toEqual([
      ['org-a', '%x\\%%', '%x\\%%', 3],
      ['org-b', '%y\\_%', '%y\\_%', 6],
    ]);
  });
});
