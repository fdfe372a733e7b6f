import { Conflict, InvalidInput } from '../errors';
import type { ReleaseRow } from './release-repository';

/**
 * The release a rollback of a target restores: the one asked for (a Healthy, committed release of that target), or
 * the latest Healthy one before what the target runs now (its latest deployed release).
 */
export function rollbackPoint(history: ReleaseRow[], releaseId: string | undefined): ReleaseRow {
  if (releaseId !== undefined) {
    const chosen = history.find((r) => r.id === releaseId);
    if (!chosen) throw new InvalidInput('releaseId is not a release of this tenant and environment');
    if (chosen.status !== 'Healthy' || chosen.commit_sha === null) {
      throw new Conflict(`release ${releaseId} is ${chosen.status}; a rollback restores a Healthy release`);
    }
    return chosen;
  }
  // Newest first: skip what runs now, take the first Healthy one before it.
  const current = history.findIndex((r) => r.commit_sha !== null || r.status === 'Failed');
  const point = history.slice(current + 1).find((r) => r.status === 'Healthy' && r.commit_sha !== null);
  if (current < 0 || !point)
    throw new Conflict('no earlier Healthy release of this tenant and environment to roll back to');
  return point;
}
