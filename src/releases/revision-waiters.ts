import type { Queryable } from '../db/knex';

/** A workflow that waits for the controller to report a revision on a target. */
export interface RevisionWaiter {
  kind: 'release';
  id: string;
  workflowId: string;
}

/**
 * Which workflow waits for this revision on this target: the release committed as `revision` and now syncing.
 * The one place the controller webhook asks; promotions add their waiters here beside releases.
 */
export async function waiterForRevision(
  db: Queryable,
  target: { organizationId: string; projectId: string; tenantId: string; environment: string; revision: string },
): Promise<RevisionWaiter | null> {
  const row = (await db('releases')
    .where({
      organization_id: target.organizationId,
      project_id: target.projectId,
      tenant_id: target.tenantId,
      environment: target.environment,
      commit_sha: target.revision,
    })
    .whereIn('status', ['Deploying', 'Syncing'])
    .first('id', 'workflow_id')) as { id: string; workflow_id: string } | undefined;
  return row ? { kind: 'release', id: row.id, workflowId: row.workflow_id } : null;
}
