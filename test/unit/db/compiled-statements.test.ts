import knex from 'knex';
import type { Queryable } from '../../../src/db/knex';
import { compiledStatements } from '../../../src/db/compiled-statements';
import { listProjects } from '../../../src/projects/project-repository';
import { positionalSql } from '../../../src/db/pool-query';

/**
 * A builder of the real pg dialect (compiling needs no connection) whose pool hands out one recording connection: the
 * statements sent to node-postgres are recorded, and so are the `query` events knex's listeners see.
 */
const builder = knex({ client: 'pg' });
function recordingDb() {
  const ran: { sql: string; bindings: unknown[]; name: string }[] = [];
  const seen: { sql: string; bindings: unknown[] }[] = [];
  let held = 0;
  const connection = {
    query: (q: { name: string; text: string; values: unknown[] }) => {
      ran.push({ sql: q.text, bindings: q.values, name: q.name });
      return Promise.resolve({ rows: [] });
    },
  };
  const pool = {
    acquireConnection: () => (held++, Promise.resolve(connection)),
    releaseConnection: () => (held--, Promise.resolve()),
  };
  const client = new Proxy(builder.client as object, {
    get: (target, key) => (key in pool ? pool[key as keyof typeof pool] : Reflect.get(target, key)),
  });
  const db = new Proxy(builder, { get: (target, key) => (key === 'client' ? client : Reflect.get(target, key)) });
  const onQuery = (q: { sql: string; bindings: unknown[] }) => void seen.push({ sql: q.sql, bindings: q.bindings });
  builder.on('query', onQuery);
  return {
    db: db as Queryable,
    ran,
    seen,
    held: () => held,
    stop: () => void builder.removeListener('query', onQuery),
  };
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
    expect(ran[0]!.sql).toContain('$1');
    expect(ran[0]!.sql).not.toContain('?');
  });

  it('prepares each distinct text under its own name, announces each run and gives the connection back', async () => {
    const { db, ran, seen, held, stop } = recordingDb();
    const statements = compiledStatements();
    await statements.rows(db, 'one', { a: 'x' }, (p) => builder('t').where('a', p.a));
    await statements.rows(db, 'one', { a: 'y' }, (p) => builder('t').where('a', p.a));
    await statements.rows(db, 'two', { a: 'x' }, (p) => builder('t').where('b', p.a));
    stop();
    expect(ran[0]!.name).toBe(ran[1]!.name);
    expect(ran[2]!.name).not.toBe(ran[0]!.name);
    expect(seen.map((q) => q.bindings)).toEqual([['x'], ['y'], ['x']]);
    expect(seen[0]!.sql).toContain('?');
    expect(held()).toBe(0);
  });

  it('keeps shapes apart', async () => {
    const { db, ran } = recordingDb();
    const statements = compiledStatements();
    await statements.rows(db, 'one', { a: 'x' }, (p) => builder('t').where('a', p.a));
    await statements.rows(db, 'two', { a: 'x', b: 'y' }, (p) => builder('t').where('a', p.a).where('b', p.b));
    expect(ran.map((r) => r.bindings)).toEqual([['x'], ['x', 'y']]);
  });

  it('serves the project listing from its compiled statement, every value bound', async () => {
    const { db, ran, stop } = recordingDb();
    await listProjects(db, 'org-a', { q: 'x%' }, { limit: 2 });
    await listProjects(db, 'org-b', { q: 'y_' }, { limit: 5 });
    stop();
    expect(ran.map((r) => r.bindings)).toEqual([
      ['org-a', '%x\\%%', '%x\\%%', 3],
      ['org-b', '%y\\_%', '%y\\_%', 6],
    ]);
  });
});

describe('positionalSql', () => {
  it("numbers knex's placeholders as knex's pg dialect does, an escaped one kept", () => {
    expect(positionalSql('select ? as a, ? as b where x = ?')).toBe('select $1 as a, $2 as b where x = $3');
    expect(positionalSql('select \\? as q, ? as a')).toBe('select ? as q, $1 as a');
  });
});
