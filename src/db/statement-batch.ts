import type { Knex } from 'knex';
import { withLiterals } from './read-under-lock';

/** Where a statement that needs no answer before its transaction's next read goes (a commit pass's batch). */
export interface StatementSink {
  /**
   * `sql` is one statement; each `?` is replaced by its value of `values` as a quoted literal (cast it in `sql` to
   * the column's type). `rows` gets the statement's rows once the batch has run.
   */
  add(sql: string, values: (string | null)[], rows?: (rows: Record<string, unknown>[]) => void): void;
}

/**
 * Statements of one transaction sent together (issue 46: a commit's appends in one round trip, as the audit append
 * is): one simple-protocol query string, each statement with its own snapshot in its order, so one sees what the
 * statements before it wrote. A failing statement fails the query and the transaction with it. Whoever reads what
 * the statements write sends the batch first.
 */
export class StatementBatch implements StatementSink {
  private statements: { sql: string; rows?: (rows: Record<string, unknown>[]) => void }[] = [];

  add(sql: string, values: (string | null)[], rows?: (rows: Record<string, unknown>[]) => void): void {
    this.statements.push({ sql: withLiterals(sql, values), rows });
  }

  async send(trx: Knex.Transaction): Promise<void> {
    const statements = this.statements;
    if (statements.length === 0) return;
    this.statements = [];
    const answer = (await trx.raw(statements.map((s) => s.sql).join(';\n'))) as
      { rows: Record<string, unknown>[] } | { rows: Record<string, unknown>[] }[];
    const results = Array.isArray(answer) ? answer : [answer];
    if (results.length !== statements.length) {
      throw new Error(`a batch of ${statements.length} statements answered ${results.length} results`);
    }
    statements.forEach((s, i) => s.rows?.(results[i]!.rows));
  }
}
