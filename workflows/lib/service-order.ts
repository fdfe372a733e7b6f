import type { AuditActor } from '../../src/audit/types';
import { commitRefusal, type SyncOutcome } from './deploy-outcome';
import { groupDetails } from './current-details';

/** A group of workloads committed together, as service order runs it. */
export interface OrderedStep {
  workloads: string[];
}

/** What a release or promotion does for one group; the loop in between is service order's. */
export interface OrderedSteps<Group extends OrderedStep> {
  /** Commits the group (its own idempotency key: one commit per group across retries); null: nothing to change. */
  commit(group: Group, index: number, details: string): Promise<string | null>;
  /** Waits for every Application the commit changed to report Synced and Healthy; null: none before the timeout. */
  awaitHealthy(sha: string, details: string, group: Group): Promise<SyncOutcome | null>;
}

export interface OrderedEnd {
  status: 'Healthy' | 'Failed';
  reason: string;
  actor: AuditActor | null;
}

/**
 * Service order (issue 48): commits the groups one after another and waits for each to be Synced and Healthy at its
 * commit before the next. A refused commit, a Degraded or failed sync, or no report in time stops there: the later
 * groups are not committed, and the reason names the group.
 */
export async function deployInOrder<Group extends OrderedStep>(
  groups: readonly Group[],
  steps: OrderedSteps<Group>,
): Promise<OrderedEnd> {
  for (const [index, group] of groups.entries()) {
    const name = `group ${index + 1}/${groups.length} (${group.workloads.join(', ')})`;
    let sha: string | null;
    try {
      sha = await steps.commit(group, index, groupDetails(index, groups.length, group.workloads, null));
    } catch (err) {
      const refusal = commitRefusal(err);
      return {
        status: 'Failed',
        reason: `${name}: ${refusal ? `commit refused (${refusal})` : 'commit failed'}`,
        actor: null,
      };
    }
    if (sha === null) continue;
    const outcome = await steps.awaitHealthy(sha, groupDetails(index, groups.length, group.workloads, sha), group);
    if (!outcome)
      return { status: 'Failed', reason: `${name}: no healthy sync report before the sync timeout`, actor: null };
    if (outcome.status === 'Failed')
      return { status: 'Failed', reason: `${name}: ${outcome.reason}`, actor: outcome.actor };
  }
  return { status: 'Healthy', reason: `every group synced and healthy, in service order`, actor: null };
}
