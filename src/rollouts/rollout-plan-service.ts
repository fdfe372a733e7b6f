import { NotFound, Unprocessable } from '../errors';
import { orgEntry, type OrgCaller } from '../iam/caller';
import type { OrgDomainDeps } from '../iam/cross-org';
import type { ProjectService } from '../projects/project-service';
import type { ProjectTenantService } from '../projects/project-tenant-service';
import { planReferences } from './plan-references';
import { normalizePlan, planProblems, type RolloutPlanInput } from './rollout-plan';
import { deleteRolloutPlan, findRolloutPlan, listRolloutPlans, upsertRolloutPlan } from './rollout-plan-repository';

export type RolloutPlanService = ReturnType<typeof createRolloutPlanService>;

/** Rollout plans per project and environment: read, set (validated, 422 naming every problem), remove; audited. */
export function createRolloutPlanService(
  deps: OrgDomainDeps & {
    projects: Pick<ProjectService, 'projectOf' | 'environment'>;
    tenants: Pick<ProjectTenantService, 'list'>;
  },
) {
  const { db, audit } = deps;

  async function scope(caller: OrgCaller, slug: string, environment: string) {
    const project = await deps.projects.projectOf(caller, slug);
    await deps.projects.environment(caller, slug, environment);
    return project;
  }

  return {
    async list(caller: OrgCaller, slug: string) {
      const project = await deps.projects.projectOf(caller, slug);
      return { items: await listRolloutPlans(db, caller.organizationId, project.id), nextCursor: null };
    },

    async get(caller: OrgCaller, slug: string, environment: string) {
      const project = await scope(caller, slug, environment);
      const plan = await findRolloutPlan(db, caller.organizationId, project.id, environment);
      if (!plan) throw new NotFound(`environment ${environment} has no rollout plan`);
      return plan;
    },

    async put(caller: OrgCaller, slug: string, environment: string, input: RolloutPlanInput) {
      const project = await scope(caller, slug, environment);
      const plan = { environment, ...normalizePlan(input) };
      const tenants = (await deps.tenants.list(caller, slug)).map((t) => t.slug);
      const problems = planProblems(plan, await planReferences(db, caller.organizationId, project.id, plan, tenants));
      if (problems.length > 0) throw new Unprocessable(`invalid rollout plan: ${problems.join('; ')}`);
      return db.transaction(async (trx) => {
        const { plan: stored, created } = await upsertRolloutPlan(trx, caller.organizationId, project.id, plan);
        await audit.append(
          trx,
          orgEntry(caller, {
            action: created ? 'rollout-plan.create' : 'rollout-plan.update',
            category: 'configuration',
            projectId: project.id,
            resourceType: 'rollout-plan',
            resourceId: stored.id,
            details: { environment, plan },
          }),
        );
        return { plan: stored, created };
      });
    },

    async remove(caller: OrgCaller, slug: string, environment: string): Promise<void> {
      const project = await scope(caller, slug, environment);
      await db.transaction(async (trx) => {
        const removed = await deleteRolloutPlan(trx, caller.organizationId, project.id, environment);
        if (!removed) throw new NotFound(`environment ${environment} has no rollout plan`);
        await audit.append(
          trx,
          orgEntry(caller, {
            action: 'rollout-plan.delete',
            category: 'configuration',
            projectId: project.id,
            resourceType: 'rollout-plan',
            resourceId: removed.id,
            details: { environment },
          }),
        );
      });
    },
  };
}
