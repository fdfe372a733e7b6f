import type { Db } from '../db/knex';
import type { Page, PageRequest } from '../db/pagination';
import { isUuid } from '../db/uuid';
import { InvalidInput, NotFound, Unprocessable } from '../errors';
import type { OrgCaller } from '../iam/caller';
import { resourceAuditor } from '../iam/cross-org';
import type { AuditService } from '../audit/audit-service';
import type { ProjectService } from '../projects/project-service';
import { listProjectEnvironments } from '../projects/project-environment-repository';
import { listProjectTenants } from '../projects/project-tenant-repository';
import { tenantSlugsOf } from '../projects/tenant-ref';
import { findWorkload, listWorkloads } from '../projects/workload-repository';
import { discoveryViews, type DiscoveryView } from './discovery-view';
import { policyProblem, type WatchPolicy } from './watch-policy';
import { findRegistry, listRegistries } from './watch-registry-repository';
import {
  deleteSubscription,
  discoveriesPage,
  findSubscription,
  insertSubscription,
  listSubscriptions,
  toSubscription,
  type WatchKind,
  type WatchSubscription,
} from './watch-repository';
import type { Workload } from '../projects/workload-repository';

/**
 * Why a chart subscription cannot follow this workload or repository (422), or null. A chart version is an immutable
 * semver tag: digest tracking of a mutable tag has no meaning for it. The organization registry's chart is the one the
 * workload renders, so a subscription there watches that repository.
 */
function chartProblem(workload: Workload, repository: SubscriptionInput['repository'], policy: WatchPolicy) {
  if (workload.source?.kind !== 'chart') return `workload ${workload.name} is not chart-based (its source is no chart)`;
  if (policy.kind === 'digest') {
    return 'policy: digest tracking follows a mutable image tag; a chart version is an immutable tag (use semver or regex)';
  }
  if (repository.source === 'platform' && repository.name !== workload.source.name) {
    return `repository.name: workload ${workload.name} renders chart ${workload.source.name}, not ${repository.name}`;
  }
  return null;
}

export interface SubscriptionInput {
  workload: string;
  /** `image` (default): the workload's image tag; `chart`: a chart-based workload's chart version. */
  kind?: WatchKind;
  /** The organization registry's repository, or one of an external registry (by its name). */
  repository: { source: 'platform'; name: string } | { source: 'external'; registry: string; name: string };
  policy: WatchPolicy;
  environments: string[];
  tenants?: string[];
}

export type WatchService = ReturnType<typeof createWatchService>;

/**
 * Watch subscriptions of a project's workloads (issue 49, docs/automation.md): what a workload follows in the
 * organization's registry, under which policy, and which environments (and tenants) a discovery may update on its own.
 * Reads and changes are scoped to the caller's organization; every change has its audit entry in its transaction.
 */
export function createWatchService(deps: { db: Db; audit: AuditService; projects: Pick<ProjectService, 'projectOf'> }) {
  const { db } = deps;
  const record = resourceAuditor(deps.audit, 'configuration', 'watch_subscription');

  return {
    async list(caller: OrgCaller, slug: string): Promise<{ items: WatchSubscription[] }> {
      const project = await deps.projects.projectOf(caller, slug);
      const names = new Map((await listWorkloads(db, project.id)).map((w) => [w.id, w.name]));
      const rows = await listSubscriptions(db, caller.organizationId, project.id);
      const registries = new Map((await listRegistries(db, caller.organizationId)).map((r) => [r.id, r.name]));
      const items = rows.map((r) =>
        toSubscription(r, names.get(r.workloadId) ?? '', r.registryId ? registries.get(r.registryId) : undefined),
      );
      items.sort((a, b) => (a.workload < b.workload ? -1 : a.workload > b.workload ? 1 : 0));
      return { items };
    },

    /**
     * The versions found for the project's subscriptions (of one workload, or all), newest first: per subscription
     * what its policy chose, and per target whether it is verified, syncing or replaced, or why it was not updated.
     */
    async discoveries(
      caller: OrgCaller,
      slug: string,
      filter: { workload?: string },
      page: PageRequest,
    ): Promise<Page<DiscoveryView>> {
      const project = await deps.projects.projectOf(caller, slug);
      const workloads = new Map((await listWorkloads(db, project.id)).map((w) => [w.id, w.name]));
      const all = await listSubscriptions(db, caller.organizationId, project.id);
      if (filter.workload !== undefined && ![...workloads.values()].includes(filter.workload)) {
        throw new InvalidInput(`workload: ${filter.workload} is not a workload of project ${slug}`);
      }
      const subscriptions = all.filter((s) => !filter.workload || workloads.get(s.workloadId) === filter.workload);
      const found = await discoveriesPage(db, caller.organizationId, subscriptions, page);
      const items = await discoveryViews(db, found.items, {
        projectId: project.id,
        subscriptions,
        workloads,
        registries: new Map((await listRegistries(db, caller.organizationId)).map((r) => [r.id, r.name])),
        environments: (await listProjectEnvironments(db, project.id)).map((e) => e.environment),
        tenants: await listProjectTenants(db, caller.organizationId, project.id),
      });
      return { items, nextCursor: found.nextCursor };
    },

    async create(caller: OrgCaller, slug: string, input: SubscriptionInput): Promise<WatchSubscription> {
      const project = await deps.projects.projectOf(caller, slug);
      const policy: WatchPolicy =
        input.policy.kind === 'semver'
          ? { ...input.policy, includePrerelease: input.policy.includePrerelease ?? false }
          : input.policy;
      const problem = policyProblem(policy);
      if (problem) throw new InvalidInput(problem);
      const known = (await listProjectEnvironments(db, project.id)).map((e) => e.environment);
      const unknownEnv = input.environments.filter((e) => !known.includes(e));
      if (unknownEnv.length > 0) {
        throw new InvalidInput(`environments: not environments of project ${slug}: ${unknownEnv.join(', ')}`);
      }
      const tenantRows = await listProjectTenants(db, caller.organizationId, project.id);
      const slugs = new Set(tenantRows.map((t) => t.slug));
      const tenants = [...new Set(tenantSlugsOf(tenantRows, input.tenants ?? []))];
      const unknownTenant = tenants.filter((t) => !slugs.has(t));
      if (unknownTenant.length > 0) {
        throw new InvalidInput(`tenants: not tenants of project ${slug}: ${unknownTenant.join(', ')}`);
      }
      const repo = input.repository;
      if ((repo.source === 'external') !== ('registry' in repo && repo.registry !== undefined)) {
        throw new InvalidInput('repository.registry: required with source external, and only then');
      }
      const registry =
        repo.source === 'external' ? await findRegistry(db, caller.organizationId, { name: repo.registry }) : null;
      if (repo.source === 'external' && !registry) {
        throw new InvalidInput(
          `repository.registry: no registry named ${repo.registry} (POST /api/v2/watch/registries)`,
        );
      }
      return db.transaction(async (trx) => {
        const workload = await findWorkload(trx, project.id, input.workload);
        if (!workload) throw new InvalidInput(`workload: ${input.workload} is not a workload of project ${slug}`);
        const kind = input.kind ?? 'image';
        const refused = kind === 'chart' ? chartProblem(workload, repo, policy) : null;
        if (refused) throw new Unprocessable(refused);
        const id = await insertSubscription(
          trx,
          { organizationId: caller.organizationId, projectId: project.id, workloadId: workload.id },
          {
            kind,
            source: repo.source,
            registryId: registry?.id ?? null,
            repository: repo.name,
            policy,
            environments: [...new Set(input.environments)],
            tenants,
          },
        );
        const created = await findSubscription(trx, caller.organizationId, project.id, id);
        if (!created) throw new NotFound('watch subscription not found');
        await record(
          trx,
          caller,
          'watch.subscription.create',
          { id, slug: workload.name },
          {
            project: slug,
            kind,
            source: created.source,
            ...(registry ? { registry: registry.name } : {}),
            repository: created.repository,
            policy: created.policy,
            environments: created.environments,
            tenants: created.tenants,
          },
          { projectId: project.id },
        );
        return toSubscription(created, workload.name, registry?.name);
      });
    },

    async delete(caller: OrgCaller, slug: string, id: string): Promise<void> {
      const project = await deps.projects.projectOf(caller, slug);
      if (!isUuid(id)) throw new NotFound('watch subscription not found');
      await db.transaction(async (trx) => {
        const found = await findSubscription(trx, caller.organizationId, project.id, id);
        if (!found || !(await deleteSubscription(trx, caller.organizationId, id))) {
          throw new NotFound('watch subscription not found');
        }
        const workload = (await listWorkloads(trx, project.id)).find((w) => w.id === found.workloadId)?.name ?? '';
        await record(
          trx,
          caller,
          'watch.subscription.delete',
          { id, slug: workload },
          { project: slug, repository: found.repository, policy: found.policy },
          { projectId: project.id },
        );
      });
    },
  };
}
