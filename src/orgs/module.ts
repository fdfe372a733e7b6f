import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createOrgService, type OrgService } from './org-service';

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
