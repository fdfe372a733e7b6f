import type { Db } from '../db/knex';
import { Conflict } from '../errors';
import type { OrgCaller } from '../iam/caller';
import { openSessionIdsNaming } from '../break-glass/break-glass-repository';
import type { AgentBindingService } from '../clusters/agent-binding-service';
import { freezesFor } from '../freezes/freeze-repository';
import { projectPins } from '../pins/pin-repository';
import { unfinishedPromotionIds } from '../promotions/promotion-repository';
import { unfinishedReleaseIds } from '../releases/release-repository';
import { findSettings } from '../webhooks/webhook-settings-repository';
import type { Project } from '../projects/project-repository';
import type { ProjectService } from '../projects/project-service';
import type { ProjectTenantService } from '../projects/project-tenant-service';
import { projectTenantsOfEntry, type ProjectTenant } from '../projects/project-tenant-repository';
import { projectsUsingEnvironment } from '../projects/project-environment-repository';
import type { EnvironmentService } from '../platform-config/environment-service';
import type { TenantService } from '../platform-config/tenant-service';
import type { UsageScope } from '../projects/usage-scope';
import type { WorkloadService } from '../projects/workload-service';
import type { CommitClient } from '../gitops/commit-client';
import { loadProject, type DeliveryContext } from '../gitops/delivery-model';
import { readTree, resolveRef } from '../git/git-plumbing';
import { renderAll } from '../gitops/manifests';
import { isManaged, targetOf, type Target } from '../delivery-layout/target-paths';
import { MAIN_BRANCH, type RepositoryStore } from '../git/repository-store';

/** What uses an environment, tenant, workload or binding: each list names what removing it would strand. */
export interface TargetUsage {
  releases: string[];
  promotions: string[];
  /** Tenant slugs pinned in the environment (or the environments a tenant is pinned in, `<tenant>/<environment>`). */
  pins: string[];
  /** Project freezes naming the environment or tenant (ids). */
  freezes: string[];
  /** The project's inbound webhook auto-updates the environment. */
  webhookAutoUpdate: boolean;
  breakGlassSessions: string[];
}

type FreezeList = 'environments' | 'tenants';

export interface RemovalPorts {
  releases: { cancel(caller: OrgCaller, id: string, reason: string): Promise<unknown> };
  promotions: { cancel(caller: OrgCaller, id: string, reason: string): Promise<unknown> };
  breakGlass: { close(caller: OrgCaller, id: string): Promise<unknown> };
  pins: { unpin(caller: OrgCaller, tenantId: string, environment: string): Promise<void> };
  freezes: {
    get(caller: OrgCaller, slug: string, id: string): Promise<Record<FreezeList, string[]>>;
    update(caller: OrgCaller, slug: string, id: string, input: Partial<Record<FreezeList, string[]>>): Promise<unknown>;
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

export interface TargetRemovalDeps extends DeliveryContext, RemovalPorts {
  db: Db;
  projects: Pick<ProjectService, 'projectOf' | 'environment' | 'removeEnvironment'>;
  tenants: Pick<ProjectTenantService, 'resolve' | 'remove'>;
  workloads: Pick<WorkloadService, 'get' | 'remove'>;
  bindings: Pick<AgentBindingService, 'get' | 'delete'>;
  repositories: RepositoryStore;
  commit: CommitClient;
  /** The organization's catalogues: their DELETE locks the entry while `everywhere` clears its project uses. */
  catalogue: { tenants: Pick<TenantService, 'delete'>; environments: Pick<EnvironmentService, 'delete'> };
}

/** One thing being removed from a project, and what of the project it reaches. */
interface Subject {
  /** `environment prod`, `tenant acme`, `workload web`, `agent binding <id>`. */
  label: string;
  project: Project;
  scope: UsageScope;
  /** The freeze list naming it and its name there; environments are also named by auto-update and break-glass. */
  named?: { list: FreezeList; name: string };
  /** Pins of its tenant-and-environment pairs strand with it. */
  pins: boolean;
  /**
   * Generated targets whose files leave the repository with it, in its own commit. Absent (a binding): nothing
   * leaves; the destinations it changes show in the preview and go with the next commit, as a new binding's do.
   */
  files?: (t: Target) => boolean;
  remove: () => Promise<void>;
}

const inUse = (u: TargetUsage) =>
  u.releases.length + u.promotions.length + u.pins.length + u.freezes.length + u.breakGlassSessions.length > 0 ||
  u.webhookAutoUpdate;

function usesOf(u: TargetUsage): string {
  return [
    u.releases.length > 0 ? `releases ${u.releases.join(', ')}` : '',
    u.promotions.length > 0 ? `promotions ${u.promotions.join(', ')}` : '',
    u.pins.length > 0 ? `pins of ${u.pins.join(', ')}` : '',
    u.freezes.length > 0 ? `freezes ${u.freezes.join(', ')}` : '',
    u.webhookAutoUpdate ? 'the inbound webhook auto-update list' : '',
    u.breakGlassSessions.length > 0 ? `break-glass sessions ${u.breakGlassSessions.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

const CANCEL_HINT = 'remove it with cancel=true to cancel them first';

function describeUsage(label: string, u: TargetUsage): string {
  return `${label} is in use by ${usesOf(u)}; ${CANCEL_HINT}`;
}

/** A catalogue entry's uses across projects: `tenant acme is in use in project hall (releases r1), project ...`. */
function describeUsageIn(label: string, used: [Subject, TargetUsage][]): string {
  const each = used.map(([subject, u]) => `project ${subject.project.slug} (${usesOf(u)})`);
  return `${label} is in use in ${each.join(', ')}; ${CANCEL_HINT}`;
}

const within = <T>(allowed: T[] | undefined, value: T) => !allowed || allowed.includes(value);

export type TargetRemoval = ReturnType<typeof createTargetRemoval>;

/**
 * Safe removal of a project environment, tenant, workload or agent binding (issue 26 item 8, docs/argocd.md
 * "Removing an environment, tenant, workload or binding"): refused with 409 naming what uses it, unless `cancel` is
 * set, which cancels releases and promotions through their workflows, closes break-glass sessions, unpins, and takes
 * it out of project freezes and the webhook auto-update list (each audited by its own service) before it goes. Its
 * generated files then leave the repository in one audited commit of their own through the one commit path, which
 * also brings the project's AppProjects and roots up to date (a binding has no files: see `binding`).
 */
export function createTargetRemoval(deps: TargetRemovalDeps) {
  const { db } = deps;

  async function usage(subject: Subject): Promise<TargetUsage & { pinRows: { tenantId: string; env: string }[] }> {
    const { project, scope, named } = subject;
    const pins = subject.pins
      ? (await projectPins(db, project.id)).filter(
          (p) => within(scope.environments, p.environment) && within(scope.tenantIds, p.tenant_id),
        )
      : [];
    const freezes = named
      ? (await freezesFor(db, project.organizationId, project.id)).filter(
          (f) => f.projectId === project.id && f[named.list].includes(named.name),
        )
      : [];
    const environment = named?.list === 'environments' ? named.name : null;
    const settings = environment === null ? null : await findSettings(db, project.id);
    return {
      releases: await unfinishedReleaseIds(db, project.id, scope),
      promotions: await unfinishedPromotionIds(db, project.id, scope),
      pins: pins.map((p) => (scope.tenantIds ? `${p.tenant_slug}/${p.environment}` : p.tenant_slug)),
      pinRows: pins.map((p) => ({ tenantId: p.tenant_id, env: p.environment })),
      freezes: freezes.map((f) => f.id),
      webhookAutoUpdate: environment !== null && (settings?.auto_update_environments.includes(environment) ?? false),
      breakGlassSessions:
        environment === null
          ? []
          : await openSessionIdsNaming(db, {
              organizationId: project.organizationId,
              projectId: project.id,
              environment,
            }),
    };
  }

  async function release(caller: OrgCaller, subject: Subject, u: Awaited<ReturnType<typeof usage>>) {
    const slug = subject.project.slug;
    const reason = `${subject.label} is being removed`;
    for (const id of u.releases) await deps.releases.cancel(caller, id, reason);
    for (const id of u.promotions) await deps.promotions.cancel(caller, id, reason);
    for (const id of u.breakGlassSessions) await deps.breakGlass.close(caller, id);
    for (const pin of u.pinRows) await deps.pins.unpin(caller, pin.tenantId, pin.env);
    const { named } = subject;
    for (const id of u.freezes) {
      if (!named) break;
      const remaining = (await deps.freezes.get(caller, slug, id))[named.list].filter((e) => e !== named.name);
      // An empty scope list means "all": a freeze naming only what goes is deleted, never widened.
      if (remaining.length === 0) await deps.freezes.delete(caller, slug, id);
      else await deps.freezes.update(caller, slug, id, { [named.list]: remaining });
    }
    if (u.webhookAutoUpdate) {
      const settings = await deps.webhookSettings.get(caller, slug);
      await deps.webhookSettings.put(caller, slug, {
        autoUpdateEnvironments: settings.autoUpdateEnvironments.filter((e) => e !== named?.name),
        imageFilter: settings.imageFilter,
        tagFilter: settings.tagFilter,
      });
    }
  }

  /** The commit removing the subject's generated files, with the project's AppProjects and roots brought up to date. */
  async function removeFiles(caller: OrgCaller, subject: Subject) {
    const { project, files } = subject;
    if (!files || !(await deps.repositories.exists(project.organizationId, project.id))) return null;
    const repo = deps.repositories.pathOf(project.organizationId, project.id);
    const current = await readTree(repo, await resolveRef(repo, MAIN_BRANCH), '', isManaged);
    const loaded = await loadProject(db, project.organizationId, project.id, deps);
    const rendered = loaded ? renderAll(loaded.model, () => false) : new Map<string, string>();
    const deletes = [...current.keys()].filter((path) => {
      const target = targetOf(path);
      return target ? files(target) : !rendered.has(path);
    });
    if (deletes.length === 0) return null;
    const writes = [...rendered]
      .filter(([path, text]) => current.get(path) !== text)
      .map(([path, content]) => ({ path, content }));
    const outcome = await deps.commit(caller, project, {
      message: `Remove ${subject.label} from ${project.slug}`,
      operation: { type: 'files', writes, deletes },
    });
    return outcome.sha;
  }

  /** 409 naming what uses the subject unless `cancel`; the answer names the removal commit (null: none). */
  async function run(caller: OrgCaller, subject: Subject, cancel: boolean) {
    const found = await usage(subject);
    if (inUse(found)) {
      if (!cancel) throw new Conflict(describeUsage(subject.label, found));
      await release(caller, subject, found);
      const left = await usage(subject);
      if (inUse(left)) throw new Conflict(describeUsage(subject.label, left));
    }
    await subject.remove();
    return { commit: await removeFiles(caller, subject) };
  }

  /**
   * The removal of a catalogue entry from every project that uses it: 409 naming each use in each project (nothing
   * changes) unless `cancel`; then, project by project, the uses are cancelled and the entry leaves the project in one
   * audited removal commit. The caller (the catalogue's DELETE) holds the entry locked meanwhile.
   */
  async function everywhere(caller: OrgCaller, label: string, subjects: Subject[], cancel: boolean) {
    const used: [Subject, TargetUsage][] = [];
    for (const subject of subjects) {
      const u = await usage(subject);
      if (inUse(u)) used.push([subject, u]);
    }
    if (used.length > 0 && !cancel) throw new Conflict(describeUsageIn(label, used));
    const projects: { project: string; commit: string | null }[] = [];
    for (const subject of subjects) {
      const { commit } = await run(caller, subject, cancel);
      projects.push({ project: subject.project.slug, commit });
    }
    return { projects };
  }

  async function tenantSubject(caller: OrgCaller, tenant: ProjectTenant): Promise<Subject> {
    return {
      label: `tenant ${tenant.slug}`,
      project: await deps.projects.projectOf(caller, tenant.projectSlug),
      scope: { tenantIds: [tenant.id] },
      named: { list: 'tenants', name: tenant.slug },
      pins: true,
      files: (t) => t.tenant === tenant.slug,
      remove: () => deps.tenants.remove(caller, tenant.id),
    };
  }

  async function environmentSubject(caller: OrgCaller, slug: string, environment: string): Promise<Subject> {
    const project = await deps.projects.projectOf(caller, slug);
    await deps.projects.environment(caller, slug, environment);
    return {
      label: `environment ${environment}`,
      project,
      scope: { environments: [environment] },
      named: { list: 'environments', name: environment },
      pins: true,
      files: (t) => t.environment === environment,
      remove: () => deps.projects.removeEnvironment(caller, slug, environment),
    };
  }

  return {
    usage: async (caller: OrgCaller, slug: string, environment: string): Promise<TargetUsage> => {
      const { pinRows: _rows, ...rest } = await usage(await environmentSubject(caller, slug, environment));
      return rest;
    },

    environment: async (caller: OrgCaller, slug: string, environment: string, cancel: boolean) =>
      run(caller, await environmentSubject(caller, slug, environment), cancel),

    tenant: async (caller: OrgCaller, ref: string, cancel: boolean) =>
      run(caller, await tenantSubject(caller, await deps.tenants.resolve(caller, ref)), cancel),

    /** DELETE /api/v2/org/tenants/{id}: the catalogue tenant leaves every project that has it, then the catalogue. */
    catalogueTenant: (caller: OrgCaller, id: string, cancel: boolean) =>
      deps.catalogue.tenants.delete(caller, id, async (entry) => {
        const tenants = await projectTenantsOfEntry(db, caller.organizationId, entry.id);
        const subjects = await Promise.all(tenants.map((t) => tenantSubject(caller, t)));
        return everywhere(caller, `tenant ${entry.slug}`, subjects, cancel);
      }),

    /** DELETE /api/v2/org/environments/{slug}: the environment leaves every project that uses it, then the catalogue. */
    catalogueEnvironment: (caller: OrgCaller, slug: string, cancel: boolean) =>
      deps.catalogue.environments.delete(caller, slug, async (entry) => {
        const projects = await projectsUsingEnvironment(db, caller.organizationId, entry.id);
        const subjects = await Promise.all(projects.map((p) => environmentSubject(caller, p, entry.slug)));
        return everywhere(caller, `environment ${entry.slug}`, subjects, cancel);
      }),

    async workload(caller: OrgCaller, slug: string, name: string, cancel: boolean) {
      const project = await deps.projects.projectOf(caller, slug);
      await deps.workloads.get(caller, slug, name);
      const subject: Subject = {
        label: `workload ${name}`,
        project,
        scope: { workload: name },
        pins: false,
        files: (t) => t.service === name,
        remove: () => deps.workloads.remove(caller, slug, name),
      };
      return run(caller, subject, cancel);
    },

    /**
     * Releases and promotions of the pairs the binding places on its cluster wait on it. No file goes and nothing is
     * committed: the new destinations show in the preview and go with the next generate, release or promotion.
     */
    async binding(caller: OrgCaller, id: string, cancel: boolean) {
      const binding = await deps.bindings.get(caller, id);
      const subject: Subject = {
        label: `agent binding ${binding.id}`,
        project: await deps.projects.projectOf(caller, binding.project.slug),
        scope: {
          environments: binding.environments.map((e) => e.environment),
          tenantIds: binding.tenants.length > 0 ? binding.tenants.map((t) => t.id) : undefined,
        },
        pins: false,
        remove: () => deps.bindings.delete(caller, binding.id),
      };
      return run(caller, subject, cancel);
    },
  };
}
