import type { Knex } from 'knex';
import { readUnderLock, sqlLiteral } from '../../../src/db/read-under-lock';

/** A transaction that records the query strings sent and answers the lock's row, then `rows`. */
function recordingTrx(rows: unknown[]) {
  const sent: unknown[][] = [];
  const trx = {
    raw: (...args: unknown[]) => (sent.push(args), Promise.resolve([{ rows: [{}] }, { rows }])),
  } as unknown as Knex.Transaction;
  return { trx, sent };
}

describe('readUnderLock', () => {
  it("sends the lock, then the read, as one query string of quoted literals, and answers the read's first row", async () => {
    const { trx, sent } = recordingTrx([{ id: 'r1' }, { id: 'r2' }]);
    const row = await readUnderLock(trx, "git:o'1", 'SELECT id FROM t WHERE a = ? AND b = ?', ['x', "it's"]);
    expect(row).toEqual({ id: 'r1' });
    expect(sent).toEqual([
      [
        "SELECT pg_advisory_xact_lock(hashtextextended(E'git:o''1', 0)); SELECT id FROM t WHERE a = E'x' AND b = E'it''s'",
      ],
    ]);
  });

  it('writes a ? as \\x3F and doubles backslashes, so knex finds no placeholder in a literal', async () => {
    const { trx, sent } = recordingTrx([]);
    await readUnderLock(trx, 'k?', 'SELECT 1 WHERE a = ?', ['why? \\? $1']);
    expect(sent).toEqual([
      ["SELECT pg_advisory_xact_lock(hashtextextended(E'k\\x3F', 0)); SELECT 1 WHERE a = E'why\\x3F \\\\\\x3F $1'"],
    ]);
    expect(() => sqlLiteral('a\u0000b')).toThrow('a NUL character cannot be sent in a query string');
    expect(sqlLiteral(null)).toBe('NULL');
  });

  it('refuses a read whose placeholders do not match its values, sending nothing', async () => {
    const { trx, sent } = recordingTrx([]);
    await expect(readUnderLock(trx, 'k', 'SELECT 1 WHERE a = ?', ['x', 'y'])).rejects.toThrow(
      '1 placeholders for 2 values',
    );
    await expect(readUnderLock(trx, 'k', 'SELECT 1 WHERE a = ? AND b = ?', ['x'])).rejects.toThrow(
      '2 placeholders for 1 values',
    );
    expect(sent).toEqual([]);
  });
});
