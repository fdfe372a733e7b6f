import type { Knex } from 'knex';
import { StatementBatch } from '../../../src/db/statement-batch';

/** A transaction that records the query strings sent and answers `answer`. */
function recordingTrx(answer: unknown) {
  const sent: unknown[][] = [];
  const trx = {
    raw: (...args: unknown[]) => (sent.push(args), Promise.resolve(answer)),
  } as unknown as Knex.Transaction;
  return { trx, sent };
}

describe('StatementBatch', () => {
  it('sends its statements as one query string of literals, in order, and hands each its own rows', async () => {
    const { trx, sent } = recordingTrx([{ rows: [] }, { rows: [{ seq: '7' }] }]);
    const batch = new StatementBatch();
    const got: unknown[] = [];
    batch.add('INSERT INTO a (x) VALUES (?)', ["it's"]);
    batch.add('INSERT INTO b (y, z) VALUES (?::uuid, ?) RETURNING seq', ['u1', null], (rows) => got.push(rows));
    await batch.send(trx);
    expect(sent).toEqual([
      ["INSERT INTO a (x) VALUES (E'it''s');\nINSERT INTO b (y, z) VALUES (E'u1'::uuid, NULL) RETURNING seq"],
    ]);
    expect(got).toEqual([[{ seq: '7' }]]);
    // Sent once: the next send has nothing to send.
    await batch.send(trx);
    expect(sent).toHaveLength(1);
  });

  it("takes one statement's answer (not a list) and refuses an answer of another length", async () => {
    const one = recordingTrx({ rows: [{ n: 1 }] });
    const batch = new StatementBatch();
    let rows: unknown;
    batch.add('SELECT 1 AS n', [], (r) => (rows = r));
    await batch.send(one.trx);
    expect(rows).toEqual([{ n: 1 }]);
    batch.add('SELECT 1', []);
    batch.add('SELECT 2', []);
    await expect(batch.send(recordingTrx([{ rows: [] }]).trx)).rejects.toThrow(
      'a batch of 2 statements answered 1 results',
    );
  });

  it('refuses a statement whose placeholders do not match its values when it is added', () => {
    expect(() => new StatementBatch().add('SELECT ?', [])).toThrow('1 placeholders for 0 values');
  });
});
