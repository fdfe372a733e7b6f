import type { Queryable } from '../db/knex';

export interface ImageMark {
  workload: string;
  tenant: string;
  environment: string;
  tag: string;
  signedAt: Date;
}

const keyOf = (m: { workload: string; tenant: string; environment: string }) =>
  `${m.workload}\u0000${m.tenant}\u0000${m.environment}`;

/**
 * Claims targets for a signed tag: a target's mark moves only to a request signed at the same time or later, so an
 * older request arriving late never overwrites a newer tag. Returns the keys of the targets this request won.
 */
export async function claimTargets(db: Queryable, projectId: string, marks: ImageMark[]): Promise<Set<string>> {
  if (marks.length === 0) return new Set();
  const rows = (await db('image_update_marks')
    .insert(
      marks.map((m) => ({
        project_id: projectId,
        workload: m.workload,
        tenant: m.tenant,
        environment: m.environment,
        tag: m.tag,
        signed_at: m.signedAt,
      })),
    )
    .onConflict(['project_id', 'workload', 'tenant', 'environment'])
    .merge(['tag', 'signed_at'])
    .where('image_update_marks.signed_at', '<=', db.raw('excluded.signed_at'))
    .returning(['workload', 'tenant', 'environment'])) as { workload: string; tenant: string; environment: string }[];
  return new Set(rows.map(keyOf));
}

export { keyOf as markKey };
