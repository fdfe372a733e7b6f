import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createOrgService, type OrgService } from './org-service';
import { organizationRoutes } from '../../api/routes/orgs/organization-routes';
import { memberMfaRoutes } from '../../api/routes/orgs/member-mfa-routes';

declare module '../runtime/service-provider' {
  interface DomainServices {
    orgs: OrgService;
  }
}

/** What src/orgs plugs into the platform (src/runtime/domain-module.ts). */
export const orgsModule = {
  name: 'orgs',
  tables: ['memberships', 'organizations'],
  settings: 'orgs',
  routes: (services) => [
    ...organizationRoutes(services.orgs, services.config.orgs.pageMax),
    ...memberMfaRoutes(services.memberMfa),
  ],
  services: {
    orgs: provide(['invitations'], (deps) =>
      createOrgService({
        ...owned(deps),
        invitations: deps.invitations,
        limiter: deps.limiter,
        createRate: deps.config.orgs.orgCreateRate,
      }),
    ),
  },
} satisfies DomainModule;
