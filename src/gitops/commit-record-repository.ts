import type { Knex } from 'knex';
import type { Queryable } from '../db/knex';
import { readUnderLock } from '../db/read-under-lock';

/**
 * What PostgreSQL knows of a repository's commits (table `git_commits`, written in the commit's transaction together
 * with its audit entries): the commit of an idempotency key, and the newest recorded commit, the head the database
 * vouches for.
 */
export interface CommitRecordState {
  /** The commit this idempotency key wrote, or null. */
  keySha: string | null;
  /** The newest recorded commit of the repository, or null (none yet: a new repository, or one older than the table). */
  head: string | null;
  /** The project has an external remote (`project_remotes`): its commits are pushed there. */
  remote: boolean;
  /** The audit entries the write already made (`entries`, the audit module's query), oldest first. */
  entryIds: string[];
}

/**
 * The record state of a write, with the ids `entries` (the audit module's query of the write's entries) selects, in one
 * round trip of the commit path (issue 46: one query where there were three).
 */
export async function commitRecordState(
  db: Queryable,
  projectId: string,
  key: string,
  entries: Knex.QueryBuilder,
): Promise<CommitRecordState> {
  const { rows } = (await db.raw(
    `SELECT (SELECT sha FROM git_commits WHERE project_id = ? AND idempotency_key = ?) AS key_sha,
            (SELECT sha FROM git_commits WHERE project_id = ? ORDER BY seq DESC LIMIT 1) AS head,
            EXISTS (SELECT 1 FROM project_remotes WHERE project_id = ?) AS remote,
            ARRAY(?) AS entry_ids`,
    [projectId, key, projectId, projectId, entries],
  )) as { rows: { key_sha: string | null; head: string | null; remote: boolean; entry_ids: string[] }[] };
  const row = rows[0];
  return {
    keySha: row?.key_sha ?? null,
    head: row?.head ?? null,
    remote: row?.remote === true,
    entryIds: row?.entry_ids ?? [],
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
