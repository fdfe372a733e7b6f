import type { Queryable } from '../db/knex';
import { namedInRequest } from './project-named-in-request';
import { Conflict, InvalidInput, NotFound } from '../errors';
import type { OrgCaller } from '../iam/caller';
import { orgResource, type OrgDomainDeps } from '../iam/cross-org';
import type { Page, PageRequest } from '../db/pagination';
import { findEnvironment } from '../platform-config/environment-repository';
import { gitUrlOf } from './git-url';
import type { RepositoryStore } from '../git/repository-store';
import { SUPPORTED_K8S_VERSIONS, isSupportedVersion } from '../validation';
import { slugKey } from './project-errors';
import type { EnvironmentArgoSettings, ProjectArgoSettings, SyncPolicy } from './argocd-settings';
import { mergeEnvironmentArgo, mergeProjectArgo } from './argocd-settings-merge';
import {
  deleteProjectEnvironment,
  environmentArgoSettings,
  findProjectEnvironment,
  insertProjectEnvironment,
  listProjectEnvironments,
  lockProjectEnvironments,
  updateProjectEnvironment,
  type ProjectEnvironment,
} from './project-environment-repository';
import {
  deleteProject,
  findProjectBySlug,
  insertProject,
  listProjects,
  updatePolicy,
  updateProject,
  type Project,
  type ProjectFilter,
  type PolicyChanges,
  type ProjectPolicy,
} from './project-repository';

export interface ProjectDeps extends OrgDomainDeps {
  repositories: RepositoryStore;
  publicUrl: string;
}

export type ProjectView = Project & { gitUrl: string };

export interface EnvironmentInput {
  environment: string;
  kubernetesVersion: string;
  position?: number;
  validateOnPreview?: boolean;
  validateOnGenerate?: boolean;
}

export type EnvironmentChanges = Partial<
  Pick<EnvironmentInput, 'kubernetesVersion' | 'validateOnPreview' | 'validateOnGenerate'>
> & {
  destination?: { namespaceTemplate?: string | null; server?: string | null; allowSharedNamespace?: boolean };
  syncPolicy?: Partial<SyncPolicy> | null;
};

export interface ProjectChanges {
  name?: string;
  description?: string;
  argocd?: { namespaceTemplate?: string | null; appProject?: ProjectArgoSettings['appProject'] };
}

export type ProjectService = ReturnType<typeof createProjectService>;

function checkVersion(version: string | undefined): void {
  if (version !== undefined && !isSupportedVersion(version)) {
    throw new InvalidInput(
      `unsupported Kubernetes version ${version}: supported versions are ${SUPPORTED_K8S_VERSIONS.join(', ')}`,
    );
  }
}

/** Projects of the active organization, their policy record and their environments. */
export function createProjectService(deps: ProjectDeps) {
  const { db, repositories } = deps;
  const {
    lookup: projectOf,
    record: audited,
    found,
  } = orgResource(
    deps,
    { table: 'projects', column: 'slug', parse: slugKey, resourceType: 'project', category: 'configuration' },
    findProjectBySlug,
  );
  const record = (...args: Parameters<typeof audited>) =>
    audited(args[0], args[1], args[2], args[3], args[4], { projectId: args[3].id, ...args[5] });

  /** Adds the Git URL to a project this service just read (not a copy: a listing reshapes each row once). */
  const view = (project: Project): ProjectView => Object.assign(project, { gitUrl: gitUrlOf(deps.publicUrl, project) });

  async function environmentOf(project: Project, slug: string, trx: Queryable = db): Promise<ProjectEnvironment> {
    const env = await findProjectEnvironment(trx, project.id, slug);
    if (!env) throw new NotFound('environment not found');
    return env;
  }

  return {
    /** The scoped lookup other project services share (404 like missing for another organization's slug). */
    projectOf,
    /** The same lookup for a slug named in a body or query: 400 `project not found in active organization`. */
    namedProjectOf: namedInRequest(projectOf),

    list: async (caller: OrgCaller, filter: ProjectFilter, page: PageRequest): Promise<Page<ProjectView>> => {
      const result = await listProjects(db, caller.organizationId, filter, page);
      return { items: result.items.map(view), nextCursor: result.nextCursor };
    },

    get: async (caller: OrgCaller, slug: string) => view(await projectOf(caller, slug)),

    /** The bare repository is created with the row; a failed insert leaves at most an empty directory behind. */
    create(caller: OrgCaller, input: { slug: string; name: string; description?: string }): Promise<ProjectView> {
      return db.transaction(async (trx) => {
        const id = await insertProject(trx, caller.organizationId, {
          slug: input.slug,
          name: input.name,
          description: input.description ?? '',
        });
        await repositories.ensure(caller.organizationId, id);
        const project = await projectOf(caller, input.slug, trx);
        await record(trx, caller, 'project.create', project, { name: project.name });
        return view(project);
      });
    },

    update(caller: OrgCaller, slug: string, changes: ProjectChanges) {
      return db.transaction(async (trx) => {
        const project = await projectOf(caller, slug, trx);
        const { argocd, ...rest } = changes;
        const stored = argocd ? { argocd: mergeProjectArgo(project.argocd, argocd) } : {};
        found(await updateProject(trx, caller.organizationId, project.id, { ...rest, ...stored }));
        await record(trx, caller, 'project.update', project, { changes });
        return view(await projectOf(caller, slug, trx));
      });
    },

    setArchived(caller: OrgCaller, slug: string, archived: boolean) {
      return db.transaction(async (trx) => {
        const project = await projectOf(caller, slug, trx);
        found(
          await updateProject(trx, caller.organizationId, project.id, { archived_at: archived ? new Date() : null }),
        );
        await record(trx, caller, archived ? 'project.archive' : 'project.unarchive', project);
        return view(await projectOf(caller, slug, trx));
      });
    },

    /** Deletion cannot be undone: `confirm` repeats the slug. The repository goes after the rows. */
    async delete(caller: OrgCaller, slug: string, confirm: string): Promise<void> {
      const project = await db.transaction(async (trx) => {
        const p = await projectOf(caller, slug, trx);
        if (confirm !== p.slug) throw new InvalidInput('confirm must repeat the project slug');
        found(await deleteProject(trx, caller.organizationId, p.id));
        await record(trx, caller, 'project.delete', p, { name: p.name });
        return p;
      });
      await repositories.remove(caller.organizationId, project.id);
    },

    async policy(caller: OrgCaller, slug: string): Promise<ProjectPolicy> {
      return (await projectOf(caller, slug)).policy;
    },

    updatePolicy(caller: OrgCaller, slug: string, changes: PolicyChanges) {
      return db.transaction(async (trx) => {
        const project = await projectOf(caller, slug, trx);
        await updatePolicy(trx, project.id, changes);
        await record(trx, caller, 'project.policy.update', project, { changes });
        return (await projectOf(caller, slug, trx)).policy;
      });
    },

    async environments(caller: OrgCaller, slug: string): Promise<ProjectEnvironment[]> {
      return listProjectEnvironments(db, (await projectOf(caller, slug)).id);
    },

    async environment(caller: OrgCaller, slug: string, env: string): Promise<ProjectEnvironment> {
      return environmentOf(await projectOf(caller, slug), env);
    },

    /** Adds a catalogue environment at the end of the project's order, or at `position`. */
    addEnvironment(caller: OrgCaller, slug: string, input: EnvironmentInput): Promise<ProjectEnvironment> {
      checkVersion(input.kubernetesVersion);
      return db.transaction(async (trx) => {
        const project = await projectOf(caller, slug, trx);
        await lockProjectEnvironments(trx, project.id);
        const catalogue = await findEnvironment(trx, caller.organizationId, input.environment);
        if (!catalogue) throw new InvalidInput(`environment ${input.environment} is not in the organization catalogue`);
        const current = await listProjectEnvironments(trx, project.id);
        if (current.some((e) => e.environment === input.environment)) {
          throw new Conflict('the environment is already part of this project');
        }
        const position = Math.min(input.position ?? current.length, current.length);
        await trx('project_environments')
          .where({ project_id: project.id })
          .where('position', '>=', position)
          .increment('position', 1);
        await insertProjectEnvironment(
          trx,
          { organizationId: caller.organizationId, projectId: project.id, environmentId: catalogue.id },
          {
            position,
            kubernetesVersion: input.kubernetesVersion,
            validateOnPreview: input.validateOnPreview ?? true,
            validateOnGenerate: input.validateOnGenerate ?? true,
          },
        );
        await record(trx, caller, 'project.environment.add', project, { ...input, position });
        return environmentOf(project, input.environment, trx);
      });
    },

    updateEnvironment(caller: OrgCaller, slug: string, env: string, changes: EnvironmentChanges) {
      checkVersion(changes.kubernetesVersion);
      return db.transaction(async (trx) => {
        const project = await projectOf(caller, slug, trx);
        const current = await environmentOf(project, env, trx);
        const argocd: EnvironmentArgoSettings | undefined =
          changes.destination === undefined && changes.syncPolicy === undefined
            ? undefined
            : mergeEnvironmentArgo(await environmentArgoSettings(trx, current.id), changes);
        await updateProjectEnvironment(trx, current.id, {
          kubernetes_version: changes.kubernetesVersion,
          validate_on_preview: changes.validateOnPreview,
          validate_on_generate: changes.validateOnGenerate,
          argocd,
        });
        await record(trx, caller, 'project.environment.update', project, { environment: env, changes });
        return (await findProjectEnvironment(trx, project.id, env)) ?? current;
      });
    },

    removeEnvironment(caller: OrgCaller, slug: string, env: string): Promise<void> {
      return db.transaction(async (trx) => {
        const project = await projectOf(caller, slug, trx);
        await lockProjectEnvironments(trx, project.id);
        const current = await environmentOf(project, env, trx);
        await deleteProjectEnvironment(trx, project.id, current);
        await record(trx, caller, 'project.environment.remove', project, { environment: env });
      });
    },
  };
}
