import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createProjectDomain, type ProjectDomain } from './project-domain';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Projects with their environments, tenants and workloads. */
    projects: ProjectDomain;
  }
}

/** What src/projects plugs into the platform (src/runtime/domain-module.ts). */
export const projectsModule = {
  name: 'projects',
  tables: ['project_environments', 'project_policies', 'project_tenants', 'projects', 'workloads'],
  services: {
    projects: provide(['repositories', 'sources'], (deps) =>
      createProjectDomain({
        ...owned(deps),
        repositories: deps.repositories,
        publicUrl: deps.config.publicUrl,
        checkSource: deps.sources.check,
      }),
    ),
  },
  actions: {
    // Projects (/api/v2/projects): reading for every member, configuration for admins, content changes for members.
    'org.projects.read': 'viewer',
    'org.projects.create': 'admin',
    'projects.*.read': 'viewer',
    'projects.*.update': 'admin',
    'projects.*.archive': 'admin',
    'projects.*.delete': 'admin',
    'projects.*.policy.read': 'viewer',
    'projects.*.policy.update': 'admin',
    'projects.*.environments.read': 'viewer',
    'projects.*.environments.add': 'admin',
    'projects.*.environments.update': 'admin',
    'projects.*.environments.remove': 'admin',
    'projects.*.tenants.read': 'viewer',
    'projects.*.tenants.add': 'admin',
    'tenants.*.read': 'viewer',
    'tenants.*.update': 'admin',
    'tenants.*.remove': 'admin',
    'projects.*.workloads.read': 'viewer',
    'projects.*.workloads.create': 'member',
    'projects.*.workloads.update': 'member',
    'projects.*.workloads.delete': 'member',
  },
} satisfies DomainModule;
