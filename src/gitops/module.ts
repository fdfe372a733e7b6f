import type { DomainModule } from '../runtime/domain-module';
import { gitopsRoutes } from '../../api/routes/gitops/gitops-routes';

/** What src/gitops plugs into the platform (src/runtime/domain-module.ts). */
export const gitopsModule = {
  name: 'gitops',
  tables: ['git_commits', 'git_remote_pushes', 'project_remotes'],
  workflows: ['gitCommitWorkflow', 'gitPushWorkflow', 'repositoryMaintenanceWorkflow'],
  settings: 'gitops',
  routes: (services) => gitopsRoutes(services.gitops),
} satisfies DomainModule;
