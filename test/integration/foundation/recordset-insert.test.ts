import { insertRecordset, type RecordsetColumn } from '../../../src/db/recordset-insert';
import { createTestDatabase, type TestDatabase } from '../../helpers/test-db';

/**
 * insertRecordset (src/db/recordset-insert.ts), on real PostgreSQL: rows from one JSON parameter keep their order and
 * their values (text, bigint given as a number or as text, text arrays, timestamps from Dates, a missing key or null as
 * null), and the tail's ON CONFLICT and RETURNING clauses apply as in any INSERT.
 */
let database: TestDatabase;

const COLUMNS: RecordsetColumn[] = [
  ['name', 'text'],
  ['n', 'bigint'],
  ['tags', 'text[]'],
  ['at', 'timestamptz'],
];

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.raw(
    'CREATE TABLE recordset_probe (id bigserial PRIMARY KEY, name text UNIQUE NOT NULL, n bigint, tags text[], at timestamptz)',
  );
});
afterAll(async () => {
  await database.drop();
});

it('inserts every row in order with its values, and applies the conflict and returning clauses', async () => {
  const at = new Date('2026-12-01T10:00:00.123Z');
  const inserted = await insertRecordset<{ id: string; name: string }>(
    database.db,
    'recordset_probe',
    COLUMNS,
    [
      { name: 'b', n: 2, tags: ['x', 'y, "quoted"'], at },
      { name: 'a', n: '9007199254740993', tags: null },
      { name: 'c', unknown: 'ignored' },
    ],
    'RETURNING id, name',
  );
  expect(inserted.map((row) => row.name)).toEqual(['b', 'a', 'c']);
  const rows = (await database.db('recordset_probe').orderBy('id')) as Record<string, unknown>[];
  expect(rows.map(({ name, n, tags, at: when }) => ({ name, n, tags, at: when }))).toEqual([
    { name: 'b', n: '2', tags: ['x', 'y, "quoted"'], at },
    { name: 'a', n: '9007199254740993', tags: null, at: null },
    { name: 'c', n: null, tags: null, at: null },
  ]);

  const fresh = await insertRecordset<{ name: string }>(
    database.db,
    'recordset_probe',
    COLUMNS,
    [{ name: 'a' }, { name: 'd', n: 4 }],
    'ON CONFLICT (name) DO NOTHING RETURNING name',
  );
  expect(fresh).toEqual([{ name: 'd' }]);
  await insertRecordset(
    database.db,
    'recordset_probe',
    COLUMNS,
    [{ name: 'b', n: 20 }],
    'ON CONFLICT (name) DO UPDATE SET n = EXCLUDED.n',
  );
  expect(await database.db('recordset_probe').where({ name: 'b' }).first('n', 'tags')).toEqual({
    n: '20',
    tags: ['x', 'y, "quoted"'],
  });
});
