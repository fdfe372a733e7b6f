import type { DomainModule } from '../runtime/domain-module';

/** What src/diagnostics plugs into the platform (src/runtime/domain-module.ts). */
export const diagnosticsModule = {
  name: 'diagnostics',
  tables: [],
  workflows: ['pingWorkflow', 'proofWorkflow'],
  actions: {
    'org.diagnostics.run': 'admin',
  },
} satisfies DomainModule;
