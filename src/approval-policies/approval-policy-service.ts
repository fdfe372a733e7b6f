import type { Queryable } from '../db/knex';
import type { Page, PageRequest } from '../db/pagination';
import { InvalidInput, NotFound } from '../errors';
import type { OrgCaller } from '../iam/caller';
import { orgResource, type OrgDomainDeps } from '../iam/cross-org';
import type { OrgRole } from '../iam/principal';
import { findMember } from '../orgs/membership-repository';
import { listProjectEnvironments } from '../projects/project-environment-repository';
import { findProjectsByIds, type Project } from '../projects/project-repository';
import type { ProjectService } from '../projects/project-service';
import { listProjectTenants } from '../projects/project-tenant-repository';
import { namesTenant } from '../projects/tenant-ref';
import { findTeam } from '../teams/team-repository';
import {
  countApprovalPoliciesOf,
  deleteApprovalPolicy,
  findApprovalPolicy,
  insertApprovalPolicy,
  listApprovalPolicies,
  MAX_APPROVAL_POLICIES_PER_PROJECT,
  updateApprovalPolicy,
  type ApprovalPolicy,
  type ApprovalPolicyInput,
} from './approval-policy-repository';

/** The body of create and replace (schemas/requests/approval-policy-create.json). */
export interface ApprovalPolicyBody {
  project: string;
  name: string;
  environments?: string[];
  tenantSelector?: { tenantIds?: string[] };
  requiredApprovals: number;
  eligibleApprovers: { roles?: Exclude<OrgRole, 'viewer'>[]; teams?: string[]; users?: string[] };
  allowSelfApproval?: boolean;
  expiresAfterMinutes?: number;
  enabled?: boolean;
}

export type ApprovalPolicyView = ApprovalPolicy & { project: string };

export type ApprovalPolicyService = ReturnType<typeof createApprovalPolicyService>;

export interface ApprovalPolicyDeps extends OrgDomainDeps {
  projects: Pick<ProjectService, 'namedProjectOf'>;
}

const missing = (): never => {
  throw new NotFound('approval policy not found');
};

/**
 * The scope and approvers must name things of this project and organization. Every unknown id answers the same
 * 400 whether it is missing or another organization's, so the message teaches nothing about other tenants.
 */
async function checkedInput(db: Queryable, caller: OrgCaller, project: Project, body: ApprovalPolicyBody) {
  const environments = body.environments ?? [];
  const known = new Set((await listProjectEnvironments(db, project.id)).map((e) => e.environment));
  const strangerEnv = environments.find((e) => !known.has(e));
  if (strangerEnv) throw new InvalidInput(`environment ${strangerEnv} is not part of the project`);
  let tenantIds = body.tenantSelector?.tenantIds?.length ? body.tenantSelector.tenantIds : null;
  if (tenantIds) {
    const tenants = await listProjectTenants(db, caller.organizationId, project.id);
    const ids: string[] = [];
    for (const ref of tenantIds) {
      const tenant = tenants.find((t) => namesTenant(t, ref));
      if (!tenant) throw new InvalidInput(`tenant ${ref} is not a tenant of the project`);
      ids.push(tenant.id);
    }
    tenantIds = ids;
  }
  const { roles = [], teams = [], users = [] } = body.eligibleApprovers;
  if (roles.length + teams.length + users.length === 0) {
    throw new InvalidInput('eligibleApprovers needs at least one role, team or user');
  }
  for (const team of teams) {
    if (!(await findTeam(db, caller.organizationId, team)))
      throw new InvalidInput(`team ${team} is not a team of the organization`);
  }
  for (const user of users) {
    if (!(await findMember(db, caller.organizationId, user))) {
      throw new InvalidInput(`user ${user} is not a member of the organization`);
    }
  }
  const input: ApprovalPolicyInput = {
    projectId: project.id,
    name: body.name,
    environments,
    tenantIds: tenantIds ? [...new Set(tenantIds)] : null,
    requiredApprovals: body.requiredApprovals,
    eligibleApprovers: {
      roles,
      teams: teams.map((id) => id.toLowerCase()),
      users: users.map((id) => id.toLowerCase()),
    },
    allowSelfApproval: body.allowSelfApproval ?? false,
    expiresAfterMinutes: body.expiresAfterMinutes ?? null,
    enabled: body.enabled ?? true,
  };
  return input;
}

/** Approval policies of the organization's projects (/api/v2/approval-policies). */
export function createApprovalPolicyService(deps: ApprovalPolicyDeps) {
  const { db, projects } = deps;
  const {
    lookup: policyOf,
    record,
    found,
  } = orgResource(
    deps,
    { table: 'approval_policies', resourceType: 'approval policy', category: 'configuration' },
    findApprovalPolicy,
  );

  async function views(caller: OrgCaller, items: ApprovalPolicy[], trx: Queryable = db) {
    const byId = await findProjectsByIds(
      trx,
      caller.organizationId,
      items.map((p) => p.projectId),
    );
    return items.flatMap((p): ApprovalPolicyView[] => {
      const project = byId.get(p.projectId);
      return project ? [{ ...p, project: project.slug }] : [];
    });
  }
  const view = async (caller: OrgCaller, policy: ApprovalPolicy, trx?: Queryable) =>
    (await views(caller, [policy], trx))[0] ?? missing();
  const audit = (policy: ApprovalPolicyView) => ({
    resource: { id: policy.id, slug: policy.project },
    extra: { projectId: policy.projectId },
  });

  return {
    async list(caller: OrgCaller, filter: { project?: string }, page: PageRequest): Promise<Page<ApprovalPolicyView>> {
      const projectId = filter.project ? (await projects.namedProjectOf(caller, filter.project)).id : undefined;
      const result = await listApprovalPolicies(db, caller.organizationId, { projectId }, page);
      return { ...result, items: await views(caller, result.items) };
    },

    get: async (caller: OrgCaller, id: string) => view(caller, await policyOf(caller, id)),

    create(caller: OrgCaller, body: ApprovalPolicyBody): Promise<ApprovalPolicyView> {
      return db.transaction(async (trx) => {
        const project = await projects.namedProjectOf(caller, body.project, trx);
        if ((await countApprovalPoliciesOf(trx, project.id)) >= MAX_APPROVAL_POLICIES_PER_PROJECT) {
          throw new InvalidInput(`a project holds at most ${MAX_APPROVAL_POLICIES_PER_PROJECT} approval policies`);
        }
        const input = await checkedInput(trx, caller, project, body);
        const policy = await view(caller, await insertApprovalPolicy(trx, caller.organizationId, input), trx);
        const { resource, extra } = audit(policy);
        await record(trx, caller, 'approval-policy.create', resource, { name: policy.name, policy: input }, extra);
        return policy;
      });
    },

    /** The whole policy is replaced; it stays in its project. */
    replace(caller: OrgCaller, id: string, body: ApprovalPolicyBody): Promise<ApprovalPolicyView> {
      return db.transaction(async (trx) => {
        const before = await view(caller, await policyOf(caller, id, trx), trx);
        const project = await projects.namedProjectOf(caller, body.project, trx);
        if (project.id !== before.projectId)
          throw new InvalidInput('an approval policy cannot move to another project');
        const input = await checkedInput(trx, caller, project, body);
        found(await updateApprovalPolicy(trx, caller.organizationId, before.id, input));
        const { resource, extra } = audit(before);
        await record(trx, caller, 'approval-policy.update', resource, { before, after: input }, extra);
        return view(caller, (await findApprovalPolicy(trx, caller.organizationId, before.id)) ?? missing(), trx);
      });
    },

    delete(caller: OrgCaller, id: string): Promise<void> {
      return db.transaction(async (trx) => {
        const policy = await view(caller, await policyOf(caller, id, trx), trx);
        found(await deleteApprovalPolicy(trx, caller.organizationId, policy.id));
        const { resource, extra } = audit(policy);
        await record(trx, caller, 'approval-policy.delete', resource, { name: policy.name }, extra);
      });
    },
  };
}
