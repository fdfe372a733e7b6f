import type { DomainModule } from '../runtime/domain-module';
import { auditRoutes } from '../../api/routes/audit/audit-routes';

/** What src/audit plugs into the platform (src/runtime/domain-module.ts). */
export const auditModule = {
  name: 'audit',
  tables: ['audit_log'],
  routes: (services) => auditRoutes(services.audit, services.config.auditPageMax),
  actions: {
    'org.audit.read': 'admin',
    'org.audit.verify': 'admin',
  },
} satisfies DomainModule;
