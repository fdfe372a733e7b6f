import type { DomainModule } from '../runtime/domain-module';
import { provide } from '../runtime/service-provider';
import { watchRoutes } from '../../api/routes/watch/watch-routes';
import { createWatchService, type WatchService } from './watch-service';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Watch subscriptions and discoveries of new versions (issue 49, docs/automation.md). */
    watch: WatchService;
  }
}

/** What src/watch plugs into the platform (src/runtime/domain-module.ts). */
export const watchModule = {
  name: 'watch',
  tables: ['watch_discoveries', 'watch_subscriptions'],
  services: {
    watch: provide(['projects'], (deps) =>
      createWatchService({ db: deps.db, audit: deps.audit, projects: deps.projects.projects }),
    ),
  },
  // Like image updates: members change what updates a workload, viewers read it.
  actions: { 'projects.*.watch.read': 'viewer', 'projects.*.watch.update': 'member' },
  routes: (services) => watchRoutes(services.watch),
} satisfies DomainModule;
