import type { WorkloadSources } from '../gitops/workload-sources';
import type { Queryable } from '../db/knex';
import type { Page, PageRequest } from '../db/pagination';
import { InvalidInput, NotFound } from '../errors';
import type { OrgCaller } from '../iam/caller';
import { orgResource, type OrgDomainDeps } from '../iam/cross-org';
import { findProjectEnvironment } from '../projects/project-environment-repository';
import { findProjectsByIds, type Project } from '../projects/project-repository';
import type { ProjectService } from '../projects/project-service';
import { evaluatePolicies } from './policy-evaluation';
import {
  countPoliciesOf,
  deletePolicy,
  enabledPoliciesOf,
  findPolicy,
  insertPolicy,
  listPolicies,
  MAX_POLICIES_PER_PROJECT,
  updatePolicy,
  type Policy,
  type PolicyInput,
  type StoredRule,
} from './policy-repository';
import type { PolicyMode } from './policy-rules';
import { renderedTarget } from './rendered-target';

export interface PolicyDeps extends OrgDomainDeps {
  projects: Pick<ProjectService, 'namedProjectOf'>;
  publicUrl: string;
  sources: WorkloadSources;
}

/**
 * A policy as the API shows it: with its project's slug, and the project's validation settings read-only (they live
 * in the project policy record, /api/v2/projects/{slug}/policy).
 */
export type PolicyView = Policy & { project: string; validation: Project['policy']['validation'] };

/** The body of create and replace (schemas/requests/policy-create.json). */
export interface PolicyBody {
  project: string;
  name: string;
  description?: string;
  mode?: PolicyMode;
  enabled?: boolean;
  rules: StoredRule[];
}

/** The body of evaluate (schemas/requests/policy-evaluate.json). */
export interface EvaluateBody {
  project: string;
  environment?: string;
  tenantId?: string;
  manifests?: string;
  files?: { path: string; content: string }[];
}

export type PolicyService = ReturnType<typeof createPolicyService>;

const missing = (): never => {
  throw new NotFound('policy not found');
};

/** Rule ids default to `<type>-<n>` and must be unique in the policy; replicas bounds need a sane range. */
function normaliseRules(rules: StoredRule[]): StoredRule[] {
  const out = rules.map((rule, i) => ({
    ...rule,
    id: rule.id ?? `${rule.type}-${i + 1}`,
  }));
  const seen = new Set<string>();
  for (const rule of out) {
    if (seen.has(rule.id)) throw new InvalidInput(`rule id ${rule.id} is used twice`);
    seen.add(rule.id);
    if (rule.type === 'replicas-bounds') {
      if (rule.min === undefined && rule.max === undefined) {
        throw new InvalidInput(`rule ${rule.id}: replicas-bounds needs min or max`);
      }
      if (rule.min !== undefined && rule.max !== undefined && rule.min > rule.max) {
        throw new InvalidInput(`rule ${rule.id}: min must not exceed max`);
      }
    }
  }
  return out;
}

function inputOf(project: Project, body: PolicyBody): PolicyInput {
  return {
    projectId: project.id,
    name: body.name,
    description: body.description ?? '',
    mode: body.mode ?? 'enforce',
    enabled: body.enabled ?? true,
    rules: normaliseRules(body.rules),
  };
}

/** Manifest policies of the organization's projects (/api/v2/policies) and their evaluation. */
export function createPolicyService(deps: PolicyDeps) {
  const { db, projects } = deps;
  const {
    lookup: policyOf,
    record,
    found,
  } = orgResource(deps, { table: 'policies', resourceType: 'policy', category: 'configuration' }, findPolicy);

  /** Views of a page, with their projects read in one query. */
  async function views(caller: OrgCaller, items: Policy[], trx: Queryable = db): Promise<PolicyView[]> {
    const byId = await findProjectsByIds(
      trx,
      caller.organizationId,
      items.map((p) => p.projectId),
    );
    return items.flatMap((p) => {
      const project = byId.get(p.projectId);
      return project ? [{ ...p, project: project.slug, validation: project.policy.validation }] : [];
    });
  }
  const view = async (caller: OrgCaller, policy: Policy, trx?: Queryable) =>
    (await views(caller, [policy], trx))[0] ?? missing();

  const audited = (policy: Policy, project: Pick<Project, 'id' | 'slug'>) => ({
    resource: { id: policy.id, slug: project.slug },
    extra: { projectId: project.id },
  });

  return {
    async list(caller: OrgCaller, filter: { project?: string }, page: PageRequest): Promise<Page<PolicyView>> {
      const projectId = filter.project ? (await projects.namedProjectOf(caller, filter.project)).id : undefined;
      const result = await listPolicies(db, caller.organizationId, { projectId }, page);
      return { ...result, items: await views(caller, result.items) };
    },

    get: async (caller: OrgCaller, id: string) => view(caller, await policyOf(caller, id)),

    create(caller: OrgCaller, body: PolicyBody): Promise<PolicyView> {
      return db.transaction(async (trx) => {
        const project = await projects.namedProjectOf(caller, body.project, trx);
        if ((await countPoliciesOf(trx, project.id)) >= MAX_POLICIES_PER_PROJECT) {
          throw new InvalidInput(`a project holds at most ${MAX_POLICIES_PER_PROJECT} policies`);
        }
        const policy = await insertPolicy(trx, caller.organizationId, inputOf(project, body));
        const { resource, extra } = audited(policy, project);
        await record(trx, caller, 'policy.create', resource, { name: policy.name, rules: policy.rules }, extra);
        return view(caller, policy, trx);
      });
    },

    /** The whole policy is replaced; it stays in its project. */
    replace(caller: OrgCaller, id: string, body: PolicyBody): Promise<PolicyView> {
      return db.transaction(async (trx) => {
        const before = await policyOf(caller, id, trx);
        const project = await projects.namedProjectOf(caller, body.project, trx);
        if (project.id !== before.projectId) throw new InvalidInput('a policy cannot move to another project');
        const { projectId: _projectId, ...changes } = inputOf(project, body);
        found(await updatePolicy(trx, caller.organizationId, before.id, changes));
        const { resource, extra } = audited(before, project);
        await record(trx, caller, 'policy.update', resource, { before: { ...before }, after: changes }, extra);
        return view(caller, (await findPolicy(trx, caller.organizationId, before.id)) ?? missing(), trx);
      });
    },

    delete(caller: OrgCaller, id: string): Promise<void> {
      return db.transaction(async (trx) => {
        const policy = await policyOf(caller, id, trx);
        const [current] = await views(caller, [policy], trx);
        found(await deletePolicy(trx, caller.organizationId, policy.id));
        const { resource, extra } = audited(policy, { id: policy.projectId, slug: current?.project ?? '' });
        await record(trx, caller, 'policy.delete', resource, { name: policy.name }, extra);
      });
    },

    /**
     * The project's enabled policies over a manifest set (`manifests` or `files`) or over what the generator renders
     * for `tenantId` in `environment`. Reads only: nothing is committed or recorded.
     */
    async evaluate(caller: OrgCaller, body: EvaluateBody) {
      const project = await projects.namedProjectOf(caller, body.project);
      const sources = [body.manifests !== undefined, body.files !== undefined, body.tenantId !== undefined];
      if (sources.filter(Boolean).length !== 1) {
        throw new InvalidInput('give exactly one of manifests, files, or tenantId with environment');
      }
      if (body.tenantId !== undefined && body.environment === undefined) {
        throw new InvalidInput('tenantId needs an environment');
      }
      const environment = body.environment ? await findProjectEnvironment(db, project.id, body.environment) : undefined;
      if (environment === null) throw new InvalidInput(`environment ${body.environment} is not part of the project`);
      const files =
        body.tenantId !== undefined
          ? await renderedTarget(db, caller.organizationId, project.id, deps, {
              environment: environment?.environment ?? '',
              tenantId: body.tenantId,
            })
          : new Map(
              body.files ? body.files.map((f) => [f.path, f.content]) : [['manifests.yaml', body.manifests ?? '']],
            );
      if (body.files && files.size !== body.files.length) throw new InvalidInput('file paths must be unique');
      const production = environment?.production ?? false;
      const policies = await enabledPoliciesOf(db, caller.organizationId, project.id);
      return {
        project: project.slug,
        environment: environment?.environment ?? null,
        production,
        files: [...files.keys()].sort(),
        validation: project.policy.validation,
        ...evaluatePolicies(policies, files, { production }),
      };
    },
  };
}
