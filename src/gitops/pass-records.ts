import { insertPrepared } from '../audit/audit-repository';
import type { AuditEntry } from '../audit/types';
import type { Tx } from '../db/knex';
import type { RevisionKey, RevisionRecorder } from '../deployments/commit-state';
import { recordRevision, recordRevisions } from '../deployments/deployed-state-repository';

/** A commit record (`git_commits`) waiting for its pass's end, and what learns its sequence number. */
interface CommitRecord {
  row: { organization_id: string; project_id: string; idempotency_key: string; sha: string; parent_sha: string | null };
  recorded: (seq: bigint) => void;
}

/**
 * The append-only rows of a commit pass's writes, written together at the pass's end, in the writes' order (issue 46:
 * a statement or two for the pass where each write sent its own): the audit entries (one lock and chain-head read,
 * one insert), the commit records, and the places in the deployment order of commits that changed no Application.
 * They are written in the pass's transaction before it commits; a write that fails after adding to them fails the
 * whole pass (commit-path.ts), so no failed write's rows are written.
 */
export class PassRecords implements RevisionRecorder {
  private readonly entries: AuditEntry[] = [];
  private readonly commits: CommitRecord[] = [];
  private revisions: RevisionKey[] = [];

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

  later(revision: RevisionKey): void {
    this.revisions.push(revision);
  }

  async now(trx: Tx, revision: RevisionKey): Promise<number> {
    await this.writeRevisions(trx);
    return recordRevision(trx, revision);
  }

  /** Writes everything kept, then tells each commit record its sequence number. */
  async write(trx: Tx): Promise<void> {
    await this.writeRevisions(trx);
    if (this.commits.length > 0) {
      // One multi-row VALUES insert takes its seq values in row order: the returned rows are in the commits' order.
      const rows = (await trx('git_commits')
        .insert(this.commits.map((c) => c.row))
        .returning('seq')) as { seq: string }[];
      this.commits.forEach((c, i) => c.recorded(BigInt(rows[i]?.seq ?? 0)));
    }
    await insertPrepared(trx, this.entries);
  }

  private async writeRevisions(trx: Tx): Promise<void> {
    const kept = this.revisions;
    this.revisions = [];
    await recordRevisions(trx, kept);
  }
}
