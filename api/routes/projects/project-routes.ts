import type {
  ProjectArchiveRequest,
  ProjectCreateRequest,
  ProjectEnvironmentAddRequest,
  ProjectEnvironmentUpdateRequest,
  ProjectPolicyUpdateRequest,
  ProjectTenantAddRequest,
  ProjectTenantUpdateRequest,
  WorkloadCreateRequest,
  WorkloadUpdateRequest,
} from '../../request-types.generated';
import type { ProjectFilter } from '../../../src/projects/project-repository';
import type { ProjectService } from '../../../src/projects/project-service';
import type { ProjectTenantService } from '../../../src/projects/project-tenant-service';
import type { WorkloadService } from '../../../src/projects/workload-service';
import type { TargetRemoval } from '../../../src/environment-removal/target-removal';
import type { RouteDef } from '../../route-def';
import { tenantCanonical } from './tenant-canonical';
import { projectPageJson } from './project-page-json';
import { bodyOf, cancelOf, created, noContent, orgCallerOf, pageOf, paramOf, queryOf } from '../../request';

export interface ProjectRouteDeps {
  projects: ProjectService;
  removal: TargetRemoval;
  tenants: ProjectTenantService;
  workloads: WorkloadService;
}

const PROJECT = '/api/v2/projects/:slug';

/** Projects (/api/v2/projects), their policy and environments. */
function projectCrudRoutes(projects: ProjectService, pageMax: number): RouteDef[] {
  const tag = 'projects';
  return [
    {
      method: 'get',
      path: '/api/v2/projects',
      summary: 'Projects of the organization, by slug; filter by q (slug or name) and archived',
      tag,
      access: { kind: 'organization', action: 'org.projects.read' },
      query: 'project-list-query',
      handler: async (ctx) => {
        const q = queryOf(ctx);
        const filter: ProjectFilter = {
          q: q.q,
          archived: q.archived === undefined ? undefined : q.archived === 'true',
        };
        const page = await projects.list(orgCallerOf(ctx), filter, pageOf(ctx, pageMax));
        ctx.type = 'application/json';
        ctx.body = projectPageJson(page);
      },
    },
    {
      method: 'post',
      path: '/api/v2/projects',
      summary: 'Create a project with its hosted Git repository',
      tag,
      access: { kind: 'organization', action: 'org.projects.create' },
      body: 'project-create',
      status: 201,
      handler: async (ctx) => created(ctx, await projects.create(orgCallerOf(ctx), bodyOf<ProjectCreateRequest>(ctx))),
    },
    {
      method: 'get',
      path: PROJECT,
      summary: 'One project with its Git URL and policy',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.read' },
      handler: async (ctx) => {
        ctx.body = await projects.get(orgCallerOf(ctx), paramOf(ctx, 'slug'));
      },
    },
    {
      method: 'patch',
      path: PROJECT,
      summary: "Change a project's name or description",
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.update' },
      body: 'project-update',
      handler: async (ctx) => {
        ctx.body = await projects.update(orgCallerOf(ctx), paramOf(ctx, 'slug'), bodyOf(ctx));
      },
    },
    {
      method: 'put',
      path: `${PROJECT}/archived`,
      summary: 'Archive or unarchive a project (archived projects take no commits)',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.archive' },
      body: 'project-archive',
      handler: async (ctx) => {
        const { archived } = bodyOf<ProjectArchiveRequest>(ctx);
        ctx.body = await projects.setArchived(orgCallerOf(ctx), paramOf(ctx, 'slug'), archived);
      },
    },
    {
      method: 'delete',
      path: PROJECT,
      summary: 'Delete a project and its repository (?confirm=<slug>)',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.delete' },
      query: 'project-delete-query',
      handler: async (ctx) => {
        await projects.delete(orgCallerOf(ctx), paramOf(ctx, 'slug'), queryOf(ctx).confirm ?? '');
        noContent(ctx);
      },
    },
    {
      method: 'get',
      path: `${PROJECT}/policy`,
      summary: 'The project policy record (validation.errors, validation.deprecations)',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.policy.read' },
      handler: async (ctx) => {
        ctx.body = await projects.policy(orgCallerOf(ctx), paramOf(ctx, 'slug'));
      },
    },
    {
      method: 'patch',
      path: `${PROJECT}/policy`,
      summary: 'Change the project policy: validation (block or warn) and whether releases deploy by themselves',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.policy.update' },
      body: 'project-policy-update',
      handler: async (ctx) => {
        const changes = bodyOf<ProjectPolicyUpdateRequest>(ctx);
        ctx.body = await projects.updatePolicy(orgCallerOf(ctx), paramOf(ctx, 'slug'), changes);
      },
    },
  ];
}

function environmentRoutes(projects: ProjectService, removal: TargetRemoval): RouteDef[] {
  const tag = 'projects';
  const one = `${PROJECT}/environments/:environment`;
  return [
    {
      method: 'get',
      path: `${PROJECT}/environments`,
      summary: "The project's environments in order, with Kubernetes versions and delivery settings",
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.environments.read' },
      handler: async (ctx) => {
        ctx.body = { items: await projects.environments(orgCallerOf(ctx), paramOf(ctx, 'slug')), nextCursor: null };
      },
    },
    {
      method: 'post',
      path: `${PROJECT}/environments`,
      summary: 'Add an environment of the organization catalogue with its Kubernetes version',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.environments.add' },
      body: 'project-environment-add',
      status: 201,
      handler: async (ctx) =>
        created(
          ctx,
          await projects.addEnvironment(
            orgCallerOf(ctx),
            paramOf(ctx, 'slug'),
            bodyOf<ProjectEnvironmentAddRequest>(ctx),
          ),
        ),
    },
    {
      method: 'get',
      path: one,
      summary: 'One environment of the project',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.environments.read' },
      handler: async (ctx) => {
        ctx.body = await projects.environment(orgCallerOf(ctx), paramOf(ctx, 'slug'), paramOf(ctx, 'environment'));
      },
    },
    {
      method: 'patch',
      path: one,
      summary: "Change an environment's Kubernetes version or delivery settings",
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.environments.update' },
      body: 'project-environment-update',
      handler: async (ctx) => {
        const changes = bodyOf<ProjectEnvironmentUpdateRequest>(ctx);
        ctx.body = await projects.updateEnvironment(
          orgCallerOf(ctx),
          paramOf(ctx, 'slug'),
          paramOf(ctx, 'environment'),
          changes,
        );
      },
    },
    {
      method: 'delete',
      path: one,
      summary:
        'Remove an environment (409 naming what uses it unless ?cancel=true) and commit the removal of its files',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.environments.remove' },
      query: 'target-remove-query',
      handler: async (ctx) => {
        const environment = paramOf(ctx, 'environment');
        ctx.body = await removal.environment(orgCallerOf(ctx), paramOf(ctx, 'slug'), environment, cancelOf(ctx));
      },
    },
    {
      method: 'get',
      path: `${one}/usage`,
      summary: 'What uses an environment: unfinished releases and promotions, pins, freezes, auto-update, break-glass',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.environments.read' },
      handler: async (ctx) => {
        ctx.body = await removal.usage(orgCallerOf(ctx), paramOf(ctx, 'slug'), paramOf(ctx, 'environment'));
      },
    },
  ];
}

function tenantRoutes(tenants: ProjectTenantService, removal: TargetRemoval): RouteDef[] {
  const tag = 'tenants';
  const one = '/api/v2/tenants/:tenant';
  const canonical = tenantCanonical(tenants);
  return [
    {
      method: 'get',
      path: `${PROJECT}/tenants`,
      summary: 'Tenants of the project, by slug',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.tenants.read' },
      handler: async (ctx) => {
        ctx.body = { items: await tenants.list(orgCallerOf(ctx), paramOf(ctx, 'slug')), nextCursor: null };
      },
    },
    {
      method: 'post',
      path: `${PROJECT}/tenants`,
      summary: 'Add a tenant to the project (tied to the tenant catalogue entry of the same slug)',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.tenants.add' },
      body: 'project-tenant-add',
      status: 201,
      handler: async (ctx) =>
        created(ctx, await tenants.add(orgCallerOf(ctx), paramOf(ctx, 'slug'), bodyOf<ProjectTenantAddRequest>(ctx))),
    },
    {
      method: 'get',
      path: one,
      summary: 'One project tenant',
      tag,
      access: { kind: 'organization', action: 'tenants.{tenant}.read', canonical },
      handler: async (ctx) => {
        ctx.body = await tenants.get(orgCallerOf(ctx), paramOf(ctx, 'tenant'));
      },
    },
    {
      method: 'patch',
      path: one,
      summary: "Rename a project tenant or set its Argo CD namespace template (null: the environment's or project's)",
      tag,
      access: { kind: 'organization', action: 'tenants.{tenant}.update', canonical },
      body: 'project-tenant-update',
      handler: async (ctx) => {
        ctx.body = await tenants.update(
          orgCallerOf(ctx),
          paramOf(ctx, 'tenant'),
          bodyOf<ProjectTenantUpdateRequest>(ctx),
        );
      },
    },
    {
      method: 'delete',
      path: one,
      summary: 'Remove a tenant (409 naming what uses it unless ?cancel=true) and commit the removal of its files',
      tag,
      access: { kind: 'organization', action: 'tenants.{tenant}.remove', canonical },
      query: 'target-remove-query',
      handler: async (ctx) => {
        ctx.body = await removal.tenant(orgCallerOf(ctx), paramOf(ctx, 'tenant'), cancelOf(ctx));
      },
    },
  ];
}

function workloadRoutes(workloads: WorkloadService, removal: TargetRemoval): RouteDef[] {
  const tag = 'workloads';
  const one = `${PROJECT}/workloads/:name`;
  return [
    {
      method: 'get',
      path: `${PROJECT}/workloads`,
      summary: 'Workloads (services) of the project with their overrides',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.workloads.read' },
      handler: async (ctx) => {
        ctx.body = { items: await workloads.list(orgCallerOf(ctx), paramOf(ctx, 'slug')), nextCursor: null };
      },
    },
    {
      method: 'post',
      path: `${PROJECT}/workloads`,
      summary: 'Add a workload: image, ports, replicas, resources, probes, variables, overrides',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.workloads.create' },
      body: 'workload-create',
      status: 201,
      handler: async (ctx) =>
        created(
          ctx,
          await workloads.create(orgCallerOf(ctx), paramOf(ctx, 'slug'), bodyOf<WorkloadCreateRequest>(ctx)),
        ),
    },
    {
      method: 'get',
      path: one,
      summary: 'One workload',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.workloads.read' },
      handler: async (ctx) => {
        ctx.body = await workloads.get(orgCallerOf(ctx), paramOf(ctx, 'slug'), paramOf(ctx, 'name'));
      },
    },
    {
      method: 'patch',
      path: one,
      summary: 'Change a workload (given fields replace the stored ones)',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.workloads.update' },
      body: 'workload-update',
      handler: async (ctx) => {
        const changes = bodyOf<WorkloadUpdateRequest>(ctx);
        ctx.body = await workloads.update(orgCallerOf(ctx), paramOf(ctx, 'slug'), paramOf(ctx, 'name'), changes);
      },
    },
    {
      method: 'delete',
      path: one,
      summary: 'Remove a workload (409 naming what uses it unless ?cancel=true) and commit the removal of its files',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.workloads.delete' },
      query: 'target-remove-query',
      handler: async (ctx) => {
        const name = paramOf(ctx, 'name');
        ctx.body = await removal.workload(orgCallerOf(ctx), paramOf(ctx, 'slug'), name, cancelOf(ctx));
      },
    },
  ];
}

/** Projects, their environments, tenants and workloads. */
export function projectRoutes(deps: ProjectRouteDeps, pageMax: number): RouteDef[] {
  return [
    ...projectCrudRoutes(deps.projects, pageMax),
    ...environmentRoutes(deps.projects, deps.removal),
    ...tenantRoutes(deps.tenants, deps.removal),
    ...workloadRoutes(deps.workloads, deps.removal),
  ];
}
