import { enabledApprovalPoliciesOf } from '../approval-policies/approval-policy-repository';
import { coveringSession } from '../break-glass/break-glass-repository';
import type { Queryable } from '../db/knex';
import { Forbidden, Unprocessable } from '../errors';
import type { LoadedProject } from '../gitops/delivery-model';
import type { OrgCaller } from '../iam/caller';
import { skipPinned } from '../pins/pin-repository';
import type { Project } from '../projects/project-repository';
import { imageMoves, type ImageChange } from '../promotions/promotion-plan';
import type { Move } from '../promotions/promotion-workflow-contract';
import { rolloutWaves } from './rollout-gates';
import { planReferences } from './plan-references';
import { planProblems, type RolloutPlan } from './rollout-plan';
import { findRolloutPlan } from './rollout-plan-repository';
import type { RolloutWave } from './rollout-workflow-contract';
import { resolveWaves } from './wave-selection';

/** A plan resolved for a request: the project, the plan and where it came from, what moves, the waves. */
export interface Resolved {
  project: Project;
  plan: Omit<RolloutPlan, 'environment'>;
  planSource: 'request' | 'environment';
  moves: Move[];
  waves: RolloutWave[];
}

export type Pair = { tenant: string; environment: string };

/** A bulk image update (POST /api/v2/projects/{slug}/bulk-update), its tenants by slug. */
export interface BulkUpdate extends ImageChange {
  pairs: Pair[];
  rollout?: 'plan' | 'none';
}

/**
 * `plan` resolved over the tenants `moves` moves in `environment`: its waves, each with its gate's policies; 422
 * naming every problem of the plan.
 */
export async function resolveOver(
  db: Queryable,
  organizationId: string,
  target: { project: Project; loaded: LoadedProject; environment: string },
  plan: Omit<RolloutPlan, 'environment'>,
  moves: Move[],
): Promise<RolloutWave[]> {
  const { project, loaded, environment } = target;
  const policies = await enabledApprovalPoliciesOf(db, organizationId, project.id);
  const tenantSlugs = loaded.tenants.map((t) => t.slug);
  const problems = planProblems(plan, await planReferences(db, organizationId, project.id, plan, tenantSlugs));
  if (problems.length > 0) throw new Unprocessable(`invalid rollout plan: ${problems.join('; ')}`);
  const moving = loaded.tenants.filter((t) => moves.some((m) => m.tenant === t.slug));
  return rolloutWaves(resolveWaves(plan.waves, moving), plan.waves, loaded, environment, policies);
}

/**
 * A bulk image update's pairs of each environment with a rollout plan resolved as image rollouts over the plan:
 * pinned pairs skipped (reported), and an environment whose tenants all run the tag already leaves no rollout (nothing
 * moves). `rest`: the pairs of the environments without a plan, committed at once as before.
 */
export async function bulkRollouts(
  db: Queryable,
  organizationId: string,
  { project, loaded }: { project: Project; loaded: LoadedProject },
  body: BulkUpdate,
) {
  const change = { workload: body.workload, tag: body.tag };
  const rollouts: { environment: string; resolved: Resolved }[] = [];
  const skipped: (Pair & { reason: string })[] = [];
  const rest: Pair[] = [];
  for (const environment of new Set(body.pairs.map((p) => p.environment))) {
    const pairs = body.pairs.filter((p) => p.environment === environment);
    const plan = await findRolloutPlan(db, organizationId, project.id, environment);
    if (!plan) {
      rest.push(...pairs);
      continue;
    }
    const pinned = await skipPinned(db, project.id, pairs);
    skipped.push(...pinned.skipped);
    const tenants = pinned.kept.map((p) => p.tenant);
    const moves = imageMoves(loaded, environment, tenants, change);
    if (moves.length === 0) continue;
    const waves = await resolveOver(db, organizationId, { project, loaded, environment }, plan, moves);
    rollouts.push({ environment, resolved: { project, plan, moves, waves, planSource: 'environment' } });
  }
  return { project, change, rollouts, skipped, rest };
}

/**
 * Skipping `environment`'s rollout plan (`rollout: "none"`): allowed only under the caller's open break-glass session
 * covering the project and environment (403 otherwise); answers that session (null: there is no plan).
 */
export async function skipPlan(
  db: Queryable,
  caller: OrgCaller,
  project: Project,
  environment: string,
): Promise<string | null> {
  if (!(await findRolloutPlan(db, caller.organizationId, project.id, environment))) return null;
  const userId = caller.principal.userId;
  const session =
    userId === null
      ? null
      : await coveringSession(
          db,
          { organizationId: caller.organizationId, userId, projectId: project.id, environment },
          new Date(),
        );
  if (!session) {
    throw new Forbidden(
      `environment ${environment} has a rollout plan: skipping it (rollout "none") needs your open break-glass session covering it`,
    );
  }
  return session.id;
}
