import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure } from '@temporalio/workflow';
import type { AuditActor } from '../../src/audit/types';
import type { SyncReport } from '../../src/deployments/sync-report';

export interface SyncOutcome {
  status: 'Healthy' | 'Failed';
  reason: string;
  actor: AuditActor;
}

/** Synced and Healthy ends the release Healthy; a sync error, Degraded or Missing ends it Failed; the rest waits. */
export function syncOutcomeOf(report: SyncReport): SyncOutcome | null {
  if (report.syncStatus === 'Synced' && report.healthStatus === 'Healthy') {
    return { status: 'Healthy', reason: 'synced and healthy', actor: report.actor };
  }
  if (report.syncStatus !== 'Error' && report.healthStatus !== 'Degraded' && report.healthStatus !== 'Missing') {
    return null;
  }
  const reason = `controller reported sync ${report.syncStatus}, health ${report.healthStatus}`;
  return { status: 'Failed', reason: report.message ? `${reason}: ${report.message}` : reason, actor: report.actor };
}

/** The type of the ApplicationFailure that refused a commit (through an activity or child workflow), if any. */
export function commitRefusal(err: unknown): string | null {
  let cause: unknown = err;
  while (cause) {
    if (cause instanceof ApplicationFailure && cause.type) return cause.type;
    cause = cause instanceof ChildWorkflowFailure || cause instanceof ActivityFailure ? cause.cause : null;
  }
  return null;
}
