import type { DomainModule } from '../runtime/domain-module';
import { invitationRoutes } from '../../api/routes/orgs/invitation-routes';
import { createInvitationActivities } from '../../activities/invitation';

/** What src/invitations plugs into the platform (src/runtime/domain-module.ts). */
export const invitationsModule = {
  name: 'invitations',
  tables: ['invitations'],
  workflows: ['invitationWorkflow'],
  routes: (services) =>
    invitationRoutes(services.invitations, services.config.orgs.pageMax, services.identity.sessions),
  activities: (deps) => createInvitationActivities(deps),
  reconcilers: (services) => [
    {
      name: 'invitation',
      run: () => services.invitations.reconcile(),
      intervalMs: services.config.orgs.invitationReconcileIntervalMs,
    },
  ],
} satisfies DomainModule;
