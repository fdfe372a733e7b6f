import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createProjectDomain, type ProjectDomain } from './project-domain';
import { projectRoutes } from '../../api/routes/projects/project-routes';

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
  routes: (services) =>
    projectRoutes({ ...services.projects, removal: services.removal }, services.config.orgs.pageMax),
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
} satisfies DomainModule;
