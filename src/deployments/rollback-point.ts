import type { Queryable } from '../db/knex';
import { Conflict } from '../errors';
import { eventsOf, positionNumber, type EventRow } from './deployed-state-repository';

/** A state of one tenant and environment a rollback may restore: a commit whose changes were all verified there. */
export interface VerifiedPoint {
  commitSha: string;
  /** What wrote it: release, promotion, bulk-update, webhook, generate or files, and its id. */
  kind: string;
  sourceId: string | null;
  actor: string | null;
  /** The versions the commit set, per service it changed. */
  versions: Record<string, string | null>;
  verifiedAt: string;
}

/**
 * The default rollback point of a tenant and environment, from the deployed-state history: the newest commit before
 * what runs now (the newest commit that changed the target) whose every changed Application was reported Synced and
 * Healthy at it or later, whatever path wrote either (release, promotion, bulk update, webhook, generate). Null when
 * the target has no recorded commits (written before deployed state was recorded); 409 when none earlier is verified.
 */
export async function lastVerifiedPoint(
  db: Queryable,
  t: { projectId: string; tenantId: string; environment: string },
): Promise<VerifiedPoint | null> {
  const events = await eventsOf(db, t, ['commit', 'verified']);
  const commits = events.filter((e) => e.kind === 'commit');
  if (commits.length === 0) return null;
  const verified = new Map<string, EventRow>();
  for (const e of events) if (e.kind === 'verified') verified.set(`${e.service}@${e.revision}`, e);
  const byRevision = new Map<string, EventRow[]>();
  for (const e of commits.sort((a, b) => (positionNumber(b.position) ?? 0) - (positionNumber(a.position) ?? 0))) {
    byRevision.set(e.revision, [...(byRevision.get(e.revision) ?? []), e]);
  }
  const [, ...earlier] = [...byRevision.entries()];
  for (const [revision, changed] of earlier) {
    const checks = changed.map((e) => verified.get(`${e.service}@${revision}`));
    if (checks.some((v) => v === undefined)) continue;
    const first = changed[0] as EventRow;
    return {
      commitSha: revision,
      kind: first.source_kind ?? 'unknown',
      sourceId: first.source_id,
      actor: first.actor,
      versions: Object.fromEntries(changed.map((e) => [e.service, e.version])),
      verifiedAt: (checks as EventRow[])
        .map((v) => v.at)
        .reduce((a, b) => (a > b ? a : b))
        .toISOString(),
    };
  }
  throw new Conflict('no earlier verified version of this tenant and environment to roll back to');
}
