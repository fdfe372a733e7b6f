import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createTeamService, type TeamService } from './team-service';

declare module '../runtime/service-provider' {
  interface DomainServices {
    teams: TeamService;
  }
}

/** What src/teams plugs into the platform (src/runtime/domain-module.ts). */
export const teamsModule = {
  name: 'teams',
  tables: ['team_members', 'teams'],
  services: {
    teams: provide([], (core) => createTeamService(owned(core))),
  },
  actions: {
    // IAM center.
    'org.teams.read': 'viewer',
    'org.teams.create': 'admin',
    'org.teams.update': 'admin',
    'org.teams.delete': 'admin',
    'org.teams.members.add': 'admin',
    'org.teams.members.remove': 'admin',
  },
} satisfies DomainModule;
