import type { DomainModule } from '../runtime/domain-module';
import { deploymentRoutes } from '../../api/routes/deployments/deployment-routes';

/** What src/deployments plugs into the platform (src/runtime/domain-module.ts). */
export const deploymentsModule = {
  name: 'deployments',
  tables: ['deployed_target_events', 'deployed_targets', 'deployment_revisions', 'deployment_soak_times'],
  routes: (services) => deploymentRoutes(services.deployments, services.config.orgs.pageMax),
} satisfies DomainModule;
