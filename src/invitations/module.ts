import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createInvitationService, type InvitationService } from './invitation-service';

declare module '../runtime/service-provider' {
  interface DomainServices {
    invitations: InvitationService;
  }
}

/** What src/invitations plugs into the platform (src/runtime/domain-module.ts). */
export const invitationsModule = {
  name: 'invitations',
  tables: ['invitations'],
  workflows: ['invitationWorkflow'],
  reconcilers: (services) => [
    {
      name: 'invitation',
      run: () => services.invitations.reconcile(),
      intervalMs: services.config.orgs.invitationReconcileIntervalMs,
    },
  ],
  services: {
    invitations: provide([], (core) =>
      createInvitationService({
        ...owned(core),
        temporal: core.temporal,
        workflows: core.workflows,
        secrets: core.secrets,
        log: core.log,
        limiter: core.limiter,
        rates: core.config.orgs.invitationRates,
        rateWindowMs: core.config.orgs.invitationRateWindowMs,
        ttlMs: core.config.orgs.invitationTtlMs,
        publicUrl: core.config.publicUrl,
      }),
    ),
  },
  actions: {
    // Invitations: only owners and admins send them (spec, Authentication item 9).
    'org.invitations.read': 'admin',
    'org.invitations.create': 'admin',
    'org.invitations.reissue': 'admin',
    'org.invitations.revoke': 'admin',
  },
} satisfies DomainModule;
