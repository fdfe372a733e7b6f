import type { Queryable } from '../db/knex';
import { positionNumber, soakSeconds, targetsOf, type DeployedTargetRow } from './deployed-state-repository';

/** A version a promotion would take from its source environment, not verified there (yet). */
export interface UnverifiedVersion {
  tenant: string;
  service: string;
  version: string;
  /** not-deployed: the source does not run it; not-reported: no Synced+Healthy report carries it; soaking. */
  reason: 'not-deployed' | 'not-reported' | 'soaking';
  /** When a soaking version will have soaked (ISO). */
  soakUntil?: string;
}

/** Whether the Application's desired content is `version` and has been Synced and Healthy at a revision carrying it. */
function verification(row: DeployedTargetRow | undefined, version: string, soakMs: number, now: number) {
  if (!row || row.desired_version !== version) return { reason: 'not-deployed' as const };
  const desired = positionNumber(row.desired_position);
  const live = positionNumber(row.live_position);
  if (desired === null || live === null || live < desired || !row.healthy_since)
    return { reason: 'not-reported' as const };
  const until = row.healthy_since.getTime() + soakMs;
  return until > now ? { reason: 'soaking' as const, until } : null;
}

/**
 * Which versions of a promotion are not verified in the source environment (Kargo's verified Freight): each moved
 * service's version must be what the source's Application runs as desired state, reported Synced and Healthy at a
 * revision that carries it, for at least the environment's soak time. Answers them and when the first soak ends.
 */
export async function unverifiedVersions(
  db: Queryable,
  source: { projectId: string; environment: string },
  moves: { tenant: string; tenantId: string; changes: { workload: string; tag?: string }[] }[],
  now = Date.now(),
): Promise<{ unverified: UnverifiedVersion[]; soakEndsAt: number | null }> {
  const soakMs = (await soakSeconds(db, source.projectId, source.environment)) * 1000;
  const unverified: UnverifiedVersion[] = [];
  let soakEndsAt: number | null = null;
  for (const move of moves) {
    const tagged = move.changes.filter((c): c is { workload: string; tag: string } => typeof c.tag === 'string');
    const rows = new Map(
      (
        await targetsOf(
          db,
          { ...source, tenantId: move.tenantId },
          tagged.map((c) => c.workload),
        )
      ).map((r) => [r.service, r]),
    );
    for (const change of tagged) {
      const missing = verification(rows.get(change.workload), change.tag, soakMs, now);
      if (!missing) continue;
      const base = { tenant: move.tenant, service: change.workload, version: change.tag };
      if (missing.reason === 'soaking') {
        unverified.push({ ...base, reason: 'soaking', soakUntil: new Date(missing.until).toISOString() });
        soakEndsAt = Math.min(soakEndsAt ?? Infinity, missing.until);
      } else unverified.push({ ...base, reason: missing.reason });
    }
  }
  return { unverified, soakEndsAt };
}
