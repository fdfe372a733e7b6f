import type { Queryable } from '../db/knex';

/** A project's external Git remote; the token stays sealed here and is opened only to push. */
export interface ProjectRemote {
  projectId: string;
  organizationId: string;
  url: string;
  tokenSealed: string | null;
  updatedAt: string;
}

/**
 * Associated data of a sealed remote token (the platform's secrets box, MFA_ENCRYPTION_KEY): the token opens only for
 * its own project, and never where another kind of sealed secret is expected.
 */
export const remoteTokenAad = (projectId: string) => `git-remote-token:${projectId}`;

export type PushStatus = 'pushed' | 'failed';

export interface PushResult {
  status: PushStatus;
  error: string | null;
  attempts: number;
  url: string;
  at: string;
}

interface RemoteRow {
  project_id: string;
  organization_id: string;
  url: string;
  token_sealed: string | null;
  updated_at: Date;
}

export async function findRemote(db: Queryable, projectId: string): Promise<ProjectRemote | null> {
  const row = (await db('project_remotes').where({ project_id: projectId }).first()) as RemoteRow | undefined;
  return row
    ? {
        projectId: row.project_id,
        organizationId: row.organization_id,
        url: row.url,
        tokenSealed: row.token_sealed,
        updatedAt: row.updated_at.toISOString(),
      }
    : null;
}

export async function saveRemote(
  db: Queryable,
  remote: { projectId: string; organizationId: string; url: string; tokenSealed: string | null },
): Promise<ProjectRemote> {
  await db('project_remotes')
    .insert({
      project_id: remote.projectId,
      organization_id: remote.organizationId,
      url: remote.url,
      token_sealed: remote.tokenSealed,
    })
    .onConflict('project_id')
    .merge({ url: remote.url, token_sealed: remote.tokenSealed, updated_at: db.fn.now() });
  return (await findRemote(db, remote.projectId)) as ProjectRemote;
}

export async function deleteRemote(db: Queryable, projectId: string): Promise<boolean> {
  return (await db('project_remotes').where({ project_id: projectId }).delete()) > 0;
}

/** Records one push attempt of a commit (the latest attempt's outcome wins). */
export async function recordPush(
  db: Queryable,
  push: { projectId: string; sha: string; url: string; status: PushStatus; error: string | null },
): Promise<void> {
  await db('git_remote_pushes')
    .insert({
      project_id: push.projectId,
      commit_sha: push.sha,
      url: push.url,
      status: push.status,
      error: push.error,
      attempts: 1,
    })
    .onConflict(['project_id', 'commit_sha'])
    .merge({
      url: push.url,
      status: push.status,
      error: push.error,
      attempts: db.raw('git_remote_pushes.attempts + 1'),
      updated_at: db.fn.now(),
    });
}

/** Push results of the given commits, by SHA. */
export async function pushesOf(db: Queryable, projectId: string, shas: string[]): Promise<Map<string, PushResult>> {
  const result = new Map<string, PushResult>();
  if (shas.length === 0) return result;
  const rows = (await db('git_remote_pushes')
    .where({ project_id: projectId })
    .whereIn('commit_sha', shas)
    .select('commit_sha', 'url', 'status', 'error', 'attempts', 'updated_at')) as {
    commit_sha: string;
    url: string;
    status: PushStatus;
    error: string | null;
    attempts: number;
    updated_at: Date;
  }[];
  for (const r of rows) {
    result.set(r.commit_sha, {
      status: r.status,
      error: r.error,
      attempts: r.attempts,
      url: r.url,
      at: r.updated_at.toISOString(),
    });
  }
  return result;
}
