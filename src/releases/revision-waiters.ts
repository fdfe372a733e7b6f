import type { Queryable } from '../db/knex';
import { HOLDING_STATUSES } from './release-workflow-contract';

/** A workflow that waits for the controller to report its commit on a target. */
export interface RevisionWaiter {
  kind: 'release';
  id: string;
  workflowId: string;
  commitSha: string;
}

/**
 * The release that holds this target (one at a time) and waits for its commit's sync: the one place the controller
 * webhook asks. Whether a report's revision is that commit or a later one is the webhook's to decide.
 */
export async function waiterForTarget(
  db: Queryable,
  target: { organizationId: string; projectId: string; tenantId: string; environment: string },
): Promise<RevisionWaiter | null> {
  const row = (await db('releases')
    .where({
      organization_id: target.organizationId,
      project_id: target.projectId,
      tenant_id: target.tenantId,
      environment: target.environment,
    })
    .whereIn('status', HOLDING_STATUSES)
    .whereNotNull('commit_sha')
    .first('id', 'workflow_id', 'commit_sha')) as { id: string; workflow_id: string; commit_sha: string } | undefined;
  return row ? { kind: 'release', id: row.id, workflowId: row.workflow_id, commitSha: row.commit_sha } : null;
}
