import type { DomainModule } from '../runtime/domain-module';
import { releaseRoutes } from '../../api/routes/releases/release-routes';
import { createReleaseActivities } from '../../activities/release';

/** What src/releases plugs into the platform (src/runtime/domain-module.ts). */
export const releasesModule = {
  name: 'releases',
  tables: ['release_approvals', 'releases'],
  workflows: ['releaseWorkflow'],
  settings: 'releases',
  routes: (services) => releaseRoutes(services.releases, services.config.orgs.pageMax),
  activities: (deps) => createReleaseActivities(deps),
  reconcilers: (services) => [
    {
      name: 'release',
      run: () => services.releases.reconcile(),
      intervalMs: services.config.releases.reconcileIntervalMs,
    },
  ],
} satisfies DomainModule;
