import type { Knex } from 'knex';
import { COMMIT_ENTRY_IDS } from '../audit/audit-repository';
import type { Queryable } from '../db/knex';
import { readUnderLock } from '../db/read-under-lock';
import { recordsetInsertSql, type RecordsetColumn } from '../db/recordset-insert';
import type { StatementSink } from '../db/statement-batch';

/**
 * What PostgreSQL knows of a write (tables `git_commits` and `audit_log`, written in the commit's transaction): the
 * commit its idempotency key wrote, and the audit entries it made.
 */
export interface WriteRecordState {
  /** The commit this idempotency key wrote, or null. */
  keySha: string | null;
  /** The audit entries the write already made, oldest first. */
  entryIds: string[];
}

/** What a pass knows of its writes' records, and whether the project has an external remote. */
export interface PassRecordState {
  /** By idempotency key. */
  writes: Map<string, WriteRecordState>;
  /** The project has an external remote (`project_remotes`): its commits are pushed there. */
  remote: boolean;
}

/**
 * Takes the repository's lock (`lockKey`: repositoryLockKey), then reads, in the same round trip and after the lock's
 * wait (readUnderLock), its newest recorded commit (the head the database vouches for, or null) and the record state
 * of every write of the pass (issue 46: one round trip where the pass sent two, each write before that one more).
 */
export async function passStartLocked(
  trx: Knex.Transaction,
  lockKey: string,
  projectId: string,
  writes: { workflowId: string; commitKey: string }[],
): Promise<{ head: string | null; state: PassRecordState }> {
  const row = await readUnderLock<{
    head: string | null;
    remote: boolean;
    writes: { commit_key: string; entry_ids: string[]; key_sha: string | null }[];
  }>(
    trx,
    lockKey,
    `SELECT (SELECT sha FROM git_commits WHERE project_id = ?::uuid ORDER BY seq DESC LIMIT 1) AS head,
            EXISTS (SELECT 1 FROM project_remotes WHERE project_id = ?::uuid) AS remote,
            (SELECT coalesce(json_agg(json_build_object(
                      'commit_key', e.commit_key,
                      'entry_ids', e.entry_ids,
                      'key_sha', (SELECT sha FROM git_commits g
                                   WHERE g.project_id = ?::uuid AND g.idempotency_key = e.commit_key))), '[]'::json)
               FROM (${COMMIT_ENTRY_IDS}) AS e) AS writes`,
    [
      projectId,
      projectId,
      projectId,
      JSON.stringify(writes.map((w) => ({ workflow_id: w.workflowId, commit_key: w.commitKey }))),
    ],
  );
  return {
    head: row?.head ?? null,
    state: {
      writes: new Map((row?.writes ?? []).map((r) => [r.commit_key, { keySha: r.key_sha, entryIds: r.entry_ids }])),
      remote: row?.remote === true,
    },
  };
}

/** A new commit's record (`git_commits`). */
export type CommitRecordRow = {
  organization_id: string;
  project_id: string;
  idempotency_key: string;
  sha: string;
  parent_sha: string | null;
};

const COMMIT_COLUMNS: RecordsetColumn[] = [
  ['organization_id', 'uuid'],
  ['project_id', 'uuid'],
  ['idempotency_key', 'text'],
  ['sha', 'text'],
  ['parent_sha', 'text'],
];

/**
 * Records new commits in `sink`'s batch, in their order; `recorded` gets their sequence numbers (ordering, and the
 * periodic maintenance of wantsMaintenance) in the same order once the batch ran.
 */
export function recordCommits(sink: StatementSink, rows: CommitRecordRow[], recorded: (seqs: bigint[]) => void): void {
  if (rows.length === 0) return;
  const sql = recordsetInsertSql('git_commits', COMMIT_COLUMNS, 'RETURNING seq');
  sink.add(sql, [JSON.stringify(rows)], (answer) => recorded(answer.map((r) => BigInt(String(r.seq)))));
}

/** Every commit recorded for the project (what `verify-audit` expects on its branch). */
export async function recordedCommitShas(db: Queryable, projectId: string): Promise<string[]> {
  return (await db('git_commits').where({ project_id: projectId }).orderBy('seq').pluck('sha')) as string[];
}

/** The projects with recorded commits, whether or not their repository is on this volume. */
export async function projectsWithCommits(db: Queryable): Promise<{ organizationId: string; projectId: string }[]> {
  const rows = (await db('git_commits').distinct('organization_id', 'project_id')) as {
    organization_id: string;
    project_id: string;
  }[];
  return rows.map((r) => ({ organizationId: r.organization_id, projectId: r.project_id }));
}
