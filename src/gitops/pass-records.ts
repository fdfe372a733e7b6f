import { appendStatements } from '../audit/audit-repository';
import type { AuditEntry } from '../audit/types';
import type { Tx } from '../db/knex';
import { StatementBatch } from '../db/statement-batch';
import { recordCommits, type CommitRecordRow } from './commit-record-repository';

/** A commit record (`git_commits`) waiting for its pass's end, and what learns its sequence number. */
interface CommitRecord {
  row: CommitRecordRow;
  recorded: (seq: bigint) => void;
}

/**
 * The rows of a commit pass's writes, written together in the pass's transaction (issue 46: a round trip for the pass
 * where each write sent a statement for each): the statements its writes add to `batch` as they go (domain events,
 * deployed state, an operation's outcome), then at the pass's end the commit records and the audit entries (one
 * lock and chain-head read, one insert), in the writes' order. The batch is sent before each write of the pass after
 * the first (what it loads sees the earlier writes) and at the end; a write that fails after adding to it fails the
 * whole pass (commit-path.ts), so no failed write's rows are written.
 */
export class PassRecords {
  readonly batch = new StatementBatch();
  private readonly entries: AuditEntry[] = [];
  private readonly commits: CommitRecord[] = [];

  /** The audit entries of a write (prepared: their ids are known before they are written). */
  audit(entries: AuditEntry[]): void {
    this.entries.push(...entries);
  }

  commit(record: CommitRecord): void {
    this.commits.push(record);
  }

  /** Whether this pass recorded a commit (the repository then has a recorded head once the pass commits). */
  get recordsCommits(): boolean {
    return this.commits.length > 0;
  }

  /** Sends everything kept, then tells each commit record its sequence number. */
  async write(trx: Tx): Promise<void> {
    const commits = this.commits;
    recordCommits(
      this.batch,
      commits.map((c) => c.row),
      (seqs) => commits.forEach((c, i) => c.recorded(seqs[i] ?? 0n)),
    );
    if (this.entries.length > 0) for (const statement of appendStatements(this.entries)) this.batch.add(statement, []);
    await this.batch.send(trx);
  }
}
