import type { Db } from '../db/knex';
import { Conflict } from '../errors';
import type { OrgCaller } from '../iam/caller';
import { openSessionIdsNaming } from '../break-glass/break-glass-repository';
import { freezesFor } from '../freezes/freeze-repository';
import { projectPins } from '../pins/pin-repository';
import { unfinishedPromotionIds } from '../promotions/promotion-repository';
import { unfinishedReleaseIds } from '../releases/release-repository';
import { findSettings } from '../webhooks/webhook-settings-repository';
import type { Project } from '../projects/project-repository';
import type { ProjectService } from '../projects/project-service';
import type { CommitClient } from '../gitops/commit-client';
import { loadProject, type DeliveryContext } from '../gitops/delivery-model';
import { readTree, resolveRef } from '../gitops/git-plumbing';
import { isManaged, renderAll, targetOf } from '../gitops/manifests';
import { MAIN_BRANCH, type RepositoryStore } from '../gitops/repository-store';

/** What uses a project environment: each list names the ids (or slugs) removing the environment would strand. */
export interface EnvironmentUsage {
  releases: string[];
  promotions: string[];
  /** Tenant slugs pinned in the environment. */
  pins: string[];
  /** Project freezes naming the environment (ids). */
  freezes: string[];
  /** The project's inbound webhook auto-updates the environment. */
  webhookAutoUpdate: boolean;
  breakGlassSessions: string[];
}

export interface RemovalPorts {
  releases: { cancel(caller: OrgCaller, id: string, reason: string): Promise<unknown> };
  promotions: { cancel(caller: OrgCaller, id: string, reason: string): Promise<unknown> };
  breakGlass: { close(caller: OrgCaller, id: string): Promise<unknown> };
  pins: { unpin(caller: OrgCaller, tenantId: string, environment: string): Promise<void> };
  freezes: {
    get(caller: OrgCaller, slug: string, id: string): Promise<{ environments: string[] }>;
    update(caller: OrgCaller, slug: string, id: string, input: { environments: string[] }): Promise<unknown>;
    delete(caller: OrgCaller, slug: string, id: string): Promise<void>;
  };
  webhookSettings: {
    get(
      caller: OrgCaller,
      slug: string,
    ): Promise<{ autoUpdateEnvironments: string[]; imageFilter: string | null; tagFilter: string | null }>;
    put(
      caller: OrgCaller,
      slug: string,
      input: { autoUpdateEnvironments: string[]; imageFilter?: string | null; tagFilter?: string | null },
    ): Promise<unknown>;
  };
}

export interface EnvironmentRemovalDeps extends DeliveryContext, RemovalPorts {
  db: Db;
  projects: Pick<ProjectService, 'projectOf' | 'environment' | 'removeEnvironment'>;
  repositories: RepositoryStore;
  commit: CommitClient;
}

const inUse = (u: EnvironmentUsage) =>
  u.releases.length + u.promotions.length + u.pins.length + u.freezes.length + u.breakGlassSessions.length > 0 ||
  u.webhookAutoUpdate;

function describeUsage(environment: string, u: EnvironmentUsage): string {
  const parts = [
    u.releases.length > 0 ? `releases ${u.releases.join(', ')}` : '',
    u.promotions.length > 0 ? `promotions ${u.promotions.join(', ')}` : '',
    u.pins.length > 0 ? `pins of ${u.pins.join(', ')}` : '',
    u.freezes.length > 0 ? `freezes ${u.freezes.join(', ')}` : '',
    u.webhookAutoUpdate ? 'the inbound webhook auto-update list' : '',
    u.breakGlassSessions.length > 0 ? `break-glass sessions ${u.breakGlassSessions.join(', ')}` : '',
  ].filter(Boolean);
  return `environment ${environment} is in use by ${parts.join('; ')}; remove it with cancel=true to cancel them first`;
}

export type EnvironmentRemoval = ReturnType<typeof createEnvironmentRemoval>;

/**
 * Safe removal of a project environment (issue 26 item 8, docs/argocd.md "Removing an environment"): refused with 409
 * naming what uses it, unless `cancel` is set, which cancels releases and promotions through their workflows, closes
 * break-glass sessions, unpins, and takes the environment out of project freezes and the webhook auto-update list
 * (each audited by its own service) before the environment goes. Its generated files then leave the repository in
 * one audited commit of their own through the one commit path.
 */
export function createEnvironmentRemoval(deps: EnvironmentRemovalDeps) {
  const { db } = deps;

  async function usage(project: Project, environment: string): Promise<EnvironmentUsage & { pinTenantIds: string[] }> {
    const pins = await projectPins(db, project.id, environment);
    const freezes = (await freezesFor(db, project.organizationId, project.id)).filter(
      (f) => f.projectId === project.id && f.environments.includes(environment),
    );
    const settings = await findSettings(db, project.id);
    return {
      releases: await unfinishedReleaseIds(db, project.id, environment),
      promotions: await unfinishedPromotionIds(db, project.id, environment),
      pins: pins.map((p) => p.tenant_slug),
      pinTenantIds: pins.map((p) => p.tenant_id),
      freezes: freezes.map((f) => f.id),
      webhookAutoUpdate: settings?.auto_update_environments.includes(environment) ?? false,
      breakGlassSessions: await openSessionIdsNaming(db, {
        organizationId: project.organizationId,
        projectId: project.id,
        environment,
      }),
    };
  }

  async function release(caller: OrgCaller, slug: string, environment: string, u: Awaited<ReturnType<typeof usage>>) {
    const reason = `environment ${environment} is being removed`;
    for (const id of u.releases) await deps.releases.cancel(caller, id, reason);
    for (const id of u.promotions) await deps.promotions.cancel(caller, id, reason);
    for (const id of u.breakGlassSessions) await deps.breakGlass.close(caller, id);
    for (const tenantId of u.pinTenantIds) await deps.pins.unpin(caller, tenantId, environment);
    for (const id of u.freezes) {
      const remaining = (await deps.freezes.get(caller, slug, id)).environments.filter((e) => e !== environment);
      if (remaining.length === 0) await deps.freezes.delete(caller, slug, id);
      else await deps.freezes.update(caller, slug, id, { environments: remaining });
    }
    if (u.webhookAutoUpdate) {
      const settings = await deps.webhookSettings.get(caller, slug);
      await deps.webhookSettings.put(caller, slug, {
        autoUpdateEnvironments: settings.autoUpdateEnvironments.filter((e) => e !== environment),
        imageFilter: settings.imageFilter,
        tagFilter: settings.tagFilter,
      });
    }
  }

  /** The commit removing the environment's generated files, with the project's Argo CD files brought up to date. */
  async function removeFiles(caller: OrgCaller, project: Project, environment: string) {
    if (!(await deps.repositories.exists(project.organizationId, project.id))) return null;
    const repo = deps.repositories.pathOf(project.organizationId, project.id);
    const current = await readTree(repo, await resolveRef(repo, MAIN_BRANCH), '', isManaged);
    const loaded = await loadProject(db, project.organizationId, project.id, deps);
    const rendered = loaded ? renderAll(loaded.model, () => false) : new Map<string, string>();
    const deletes = [...current.keys()].filter((path) => {
      const target = targetOf(path);
      return target ? target.environment === environment : !rendered.has(path);
    });
    if (deletes.length === 0) return null;
    const writes = [...rendered]
      .filter(([path, text]) => current.get(path) !== text)
      .map(([path, content]) => ({ path, content }));
    const outcome = await deps.commit(caller, project, {
      message: `Remove environment ${environment} from ${project.slug}`,
      operation: { type: 'files', writes, deletes },
    });
    return outcome.sha;
  }

  return {
    usage: async (caller: OrgCaller, slug: string, environment: string): Promise<EnvironmentUsage> => {
      const project = await deps.projects.projectOf(caller, slug);
      await deps.projects.environment(caller, slug, environment);
      const { pinTenantIds: _ids, ...rest } = await usage(project, environment);
      return rest;
    },

    /** 409 naming what uses the environment unless `cancel`; the answer names the removal commit (null: none). */
    async remove(caller: OrgCaller, slug: string, environment: string, cancel: boolean) {
      const project = await deps.projects.projectOf(caller, slug);
      await deps.projects.environment(caller, slug, environment);
      const found = await usage(project, environment);
      if (inUse(found)) {
        if (!cancel) throw new Conflict(describeUsage(environment, found));
        await release(caller, slug, environment, found);
        const left = await usage(project, environment);
        if (inUse(left)) throw new Conflict(describeUsage(environment, left));
      }
      await deps.projects.removeEnvironment(caller, slug, environment);
      return { commit: await removeFiles(caller, project, environment) };
    },
  };
}
