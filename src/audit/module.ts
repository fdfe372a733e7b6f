import type { DomainModule } from '../runtime/domain-module';

/** What src/audit plugs into the platform (src/runtime/domain-module.ts). */
export const auditModule = {
  name: 'audit',
  tables: ['audit_log'],
  actions: {
    'org.audit.read': 'admin',
    'org.audit.verify': 'admin',
  },
} satisfies DomainModule;
