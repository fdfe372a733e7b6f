import type { DomainModule } from '../runtime/domain-module';
import { teamRoutes } from '../../api/routes/teams/team-routes';

/** What src/teams plugs into the platform (src/runtime/domain-module.ts). */
export const teamsModule = {
  name: 'teams',
  tables: ['team_members', 'teams'],
  routes: (services) => teamRoutes(services.teams, services.config.orgs.pageMax),
} satisfies DomainModule;
