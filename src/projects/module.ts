import type { DomainModule } from '../runtime/domain-module';
import { projectRoutes } from '../../api/routes/projects/project-routes';

/** What src/projects plugs into the platform (src/runtime/domain-module.ts). */
export const projectsModule = {
  name: 'projects',
  tables: ['project_environments', 'project_policies', 'project_tenants', 'projects', 'workloads'],
  routes: (services) =>
    projectRoutes({ ...services.projects, removal: services.removal }, services.config.orgs.pageMax),
} satisfies DomainModule;
