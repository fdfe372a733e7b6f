import type { DomainModule } from '../runtime/domain-module';
import { diagnosticsRoutes } from '../../api/routes/platform/diagnostics-routes';
import { createProofActivities } from '../../activities/proof';

/** What src/diagnostics plugs into the platform (src/runtime/domain-module.ts). */
export const diagnosticsModule = {
  name: 'diagnostics',
  tables: [],
  workflows: ['pingWorkflow', 'proofWorkflow'],
  routes: (services) => diagnosticsRoutes(services),
  activities: (deps) => createProofActivities(deps),
  actions: {
    'org.diagnostics.run': 'admin',
  },
} satisfies DomainModule;
