import type { Queryable } from '../db/knex';
import { targetLine } from './release-repository';

/** What a new release of a target would wait behind: the release holding it, or the last one queued for it. */
export interface TargetQueue {
  behind: { id: string; title: string; status: string };
  /** Releases holding or queued for the target now. */
  waiting: number;
  reason: string;
}

/**
 * The queue a release or rollback of the target would join (the turn rule of activities/release.ts: one deployment
 * at a time per target), named by the release's title; null when the target is free.
 */
export async function targetQueue(
  db: Queryable,
  target: { projectId: string; tenantId: string; environment: string },
): Promise<TargetQueue | null> {
  const line = await targetLine(db, {
    project_id: target.projectId,
    tenant_id: target.tenantId,
    environment: target.environment,
  });
  const holder = line[line.length - 1];
  if (!holder) return null;
  return {
    behind: { id: holder.id, title: holder.title, status: holder.status },
    waiting: line.length,
    reason: `waiting for release "${holder.title}" (${holder.status}) to finish: one deployment at a time per target`,
  };
}
