import type { AuditService } from '../audit/audit-service';
import type { Queryable, Tx } from '../db/knex';
import type { Page, PageRequest } from '../db/pagination';
import { InvalidInput, NotFound } from '../errors';
import type { OrgCaller } from '../iam/caller';
import { orgResource, type OrgDomainDeps } from '../iam/cross-org';
import {
  applyAgentVersion,
  followAgentVersion,
  listProjectEnvironments,
  type ProjectEnvironment,
} from '../projects/project-environment-repository';
import { findProjectById, findProjectBySlug } from '../projects/project-repository';
import { PROJECT_NOT_IN_ORGANIZATION } from '../projects/project-named-in-request';
import { listProjectTenants } from '../projects/project-tenant-repository';
import { namesTenant } from '../projects/tenant-ref';
import { isSupportedVersion } from '../validation/versions';
import { agentActor, callerChangeRecorder, recordClusterChange } from './cluster-audit';
import type { Cluster } from './cluster-repository';
import {
  boundEnvironmentIds,
  deleteBinding,
  findBinding,
  insertBinding,
  listBindings,
  type BindingRow,
} from './agent-binding-repository';

export interface AgentBinding {
  id: string;
  clusterId: string;
  project: { id: string; slug: string };
  tenants: { id: string; slug: string }[];
  environments: Pick<ProjectEnvironment, 'id' | 'environment' | 'kubernetesVersion' | 'kubernetesVersionSource'>[];
  createdAt: string;
  updatedAt: string;
}

export interface BindingInput {
  clusterId: string;
  project: string;
  tenants?: string[];
  environments?: string[];
  /** Default true: the bound environments' Kubernetes version follows the agent's report until set by hand. */
  followAgentVersion?: boolean;
}

/** `v1.31.4-eks-1` -> `1.31` when the validator knows that version; null otherwise (nothing to follow). */
export function followableVersion(reported: string | null): string | null {
  const match = reported ? /^v?(\d{1,3})\.(\d{1,3})(?:\.|$|[-+])/.exec(reported) : null;
  const version = match ? `${match[1]}.${match[2]}` : null;
  return version !== null && isSupportedVersion(version) ? version : null;
}

/** The rows' project environment and tenant ids resolved to what they name now (removed ones drop out). */
async function view(db: Queryable, row: BindingRow): Promise<AgentBinding> {
  const project = await findProjectById(db, row.organization_id, row.project_id);
  const tenants = await listProjectTenants(db, row.organization_id, row.project_id);
  const environments = await listProjectEnvironments(db, row.project_id);
  return {
    id: row.id,
    clusterId: row.cluster_id,
    project: { id: row.project_id, slug: project?.slug ?? '' },
    tenants: tenants.filter((t) => row.tenant_ids.includes(t.id)).map((t) => ({ id: t.id, slug: t.slug })),
    environments: environments
      .filter((e) => row.environment_ids.includes(e.id))
      .map((e) => ({
        id: e.id,
        environment: e.environment,
        kubernetesVersion: e.kubernetesVersion,
        kubernetesVersionSource: e.kubernetesVersionSource,
      })),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The ids of the named items; `names` says whether an item goes by a name (tenants: slug, id or catalogue id). */
function pick<T extends { id: string; slug: string }>(
  all: T[],
  wanted: string[],
  what: string,
  names: (item: T, ref: string) => boolean = (item, ref) => item.slug === ref,
): string[] {
  return wanted.map((ref) => {
    const found = all.find((t) => names(t, ref));
    if (!found) throw new InvalidInput(`${what} ${ref} is not part of the project`);
    return found.id;
  });
}

export type AgentBindingService = ReturnType<typeof createAgentBindingService>;

/** Agent bindings (/api/v2/agent-bindings): which project, tenants and environments a cluster serves. */
export function createAgentBindingService(
  deps: OrgDomainDeps & { clusterOf: (caller: OrgCaller, id: string, db?: Queryable) => Promise<Cluster> },
) {
  const { db, audit } = deps;
  const { lookup } = orgResource(
    deps,
    { table: 'agent_bindings', resourceType: 'agent binding', category: 'cluster' },
    findBinding,
  );

  const record = callerChangeRecorder(audit);

  return {
    async list(caller: OrgCaller, page: PageRequest, clusterId?: string): Promise<Page<AgentBinding>> {
      const rows = await listBindings(db, caller.organizationId, page, clusterId);
      return { items: await Promise.all(rows.items.map((r) => view(db, r))), nextCursor: rows.nextCursor };
    },

    async get(caller: OrgCaller, id: string): Promise<AgentBinding> {
      return view(db, await lookup(caller, id));
    },

    create(caller: OrgCaller, input: BindingInput): Promise<AgentBinding> {
      return db.transaction(async (trx) => {
        const cluster = await deps.clusterOf(caller, input.clusterId, trx);
        const project = await findProjectBySlug(trx, caller.organizationId, input.project);
        if (!project) throw new InvalidInput(PROJECT_NOT_IN_ORGANIZATION);
        const tenantIds = pick(
          await listProjectTenants(trx, caller.organizationId, project.id),
          input.tenants ?? [],
          'tenant',
          namesTenant,
        );
        const environments = (await listProjectEnvironments(trx, project.id)).map((e) => ({
          ...e,
          slug: e.environment,
        }));
        const environmentIds = pick(environments, input.environments ?? [], 'environment');
        const row = await insertBinding(trx, {
          organizationId: caller.organizationId,
          clusterId: cluster.id,
          projectId: project.id,
          tenantIds,
          environmentIds,
        });
        const follow = input.followAgentVersion ?? true;
        if (follow && environmentIds.length > 0) {
          const version = followableVersion(cluster.kubernetesVersion);
          await followAgentVersion(trx, caller.organizationId, environmentIds, version);
        }
        await record(trx, caller, cluster, 'agent-binding.create', {
          bindingId: row.id,
          project: project.slug,
          tenants: input.tenants ?? [],
          environments: input.environments ?? [],
          followAgentVersion: follow,
        });
        return view(trx, row);
      });
    },

    delete(caller: OrgCaller, id: string): Promise<void> {
      return db.transaction(async (trx) => {
        const row = await lookup(caller, id, trx);
        const cluster = await deps.clusterOf(caller, row.cluster_id, trx);
        if (!(await deleteBinding(trx, caller.organizationId, row.id))) throw new NotFound('agent binding not found');
        await record(trx, caller, cluster, 'agent-binding.delete', { bindingId: row.id, projectId: row.project_id });
      });
    },
  };
}

/**
 * The agent reported a new Kubernetes version: environments bound to the cluster that follow the agent take it (a
 * manual setting has changed their source to `manual`). Runs in the heartbeat's transaction, audited when it changes.
 */
export async function followClusterVersion(
  trx: Tx,
  audit: AuditService,
  cluster: { id: string; organizationId: string; name: string },
  reported: string,
): Promise<void> {
  const version = followableVersion(reported);
  if (version === null) return;
  const ids = await boundEnvironmentIds(trx, cluster.id);
  if (ids.length === 0) return;
  const changed = await applyAgentVersion(trx, cluster.organizationId, ids, version);
  if (changed.length === 0) return;
  await recordClusterChange(trx, audit, {
    cluster,
    action: 'cluster.environments.kubernetes-version.follow',
    actor: agentActor(cluster),
    details: { kubernetesVersion: version, projectEnvironmentIds: changed },
  });
}
