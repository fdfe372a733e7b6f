import type { DomainModule } from '../runtime/domain-module';
import { organizationRoutes } from '../../api/routes/orgs/organization-routes';
import { memberMfaRoutes } from '../../api/routes/orgs/member-mfa-routes';

/** What src/orgs plugs into the platform (src/runtime/domain-module.ts). */
export const orgsModule = {
  name: 'orgs',
  tables: ['memberships', 'organizations'],
  settings: 'orgs',
  routes: (services) => [
    ...organizationRoutes(services.orgs, services.config.orgs.pageMax),
    ...memberMfaRoutes(services.memberMfa),
  ],
} satisfies DomainModule;
