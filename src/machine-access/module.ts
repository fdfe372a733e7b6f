import type { DomainModule } from '../runtime/domain-module';
import { apiKeyRoutes } from '../../api/routes/machine-access/api-key-routes';
import { serviceAccountRoutes } from '../../api/routes/machine-access/service-account-routes';

/** What src/machine-access plugs into the platform (src/runtime/domain-module.ts). */
export const machineAccessModule = {
  name: 'machine-access',
  tables: ['project_api_keys', 'service_account_tokens', 'service_accounts'],
  routes: (services) => [...apiKeyRoutes(services.apiKeys), ...serviceAccountRoutes(services.serviceAccounts)],
} satisfies DomainModule;
