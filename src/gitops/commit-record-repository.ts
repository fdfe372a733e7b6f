import type { Knex } from 'knex';
import type { Queryable } from '../db/knex';
import { readUnderLock } from '../db/read-under-lock';

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
 * The record state of every write of a pass, with the ids `entries` (the audit module's query of the writes' entries)
 * selects, in one round trip for the pass (issue 46: one query for all the writes where each write sent its own).
 */
export async function passRecordState(
  db: Queryable,
  projectId: string,
  entries: Knex.QueryBuilder,
): Promise<PassRecordState> {
  const { rows } = (await db.raw(
    `SELECT e.commit_key, e.entry_ids,
            (SELECT sha FROM git_commits g WHERE g.project_id = ? AND g.idempotency_key = e.commit_key) AS key_sha,
            EXISTS (SELECT 1 FROM project_remotes WHERE project_id = ?) AS remote
       FROM (?) AS e`,
    [projectId, projectId, entries],
  )) as { rows: { commit_key: string; entry_ids: string[]; key_sha: string | null; remote: boolean }[] };
  return {
    writes: new Map(rows.map((r) => [r.commit_key, { keySha: r.key_sha, entryIds: r.entry_ids }])),
    remote: rows[0]?.remote === true,
  };
}

/**
 * Takes the repository's lock (`lockKey`: repositoryLockKey), then reads its newest recorded commit (the head the
 * database vouches for), or null: one round trip, the read after the lock's wait (readUnderLock).
 */
export async function recordedHeadLocked(
  trx: Knex.Transaction,
  lockKey: string,
  projectId: string,
): Promise<string | null> {
  const head = await readUnderLock<{ sha: string }>(
    trx,
    lockKey,
    'SELECT sha FROM git_commits WHERE project_id = ? ORDER BY seq DESC LIMIT 1',
    [projectId],
  );
  return head?.sha ?? null;
}

/** Records a new commit; returns its sequence number (ordering, and the periodic maintenance of wantsMaintenance). */
export async function recordCommit(
  db: Queryable,
  commit: { organizationId: string; projectId: string; idempotencyKey: string; sha: string; parentSha: string | null },
): Promise<bigint> {
  const [row] = (await db('git_commits')
    .insert({
      organization_id: commit.organizationId,
      project_id: commit.projectId,
      idempotency_key: commit.idempotencyKey,
      sha: commit.sha,
      parent_sha: commit.parentSha,
    })
    .returning('seq')) as { seq: string }[];
  return BigInt(row?.seq ?? 0);
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
