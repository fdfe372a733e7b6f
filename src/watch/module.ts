import type { DomainModule } from '../runtime/domain-module';
import { provide } from '../runtime/service-provider';
import { createWatchService, type WatchService } from './watch-service';
import { createWatchDiscovery, type WatchDiscoveryService } from './watch-discovery';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Watch subscriptions and discoveries of new versions (issue 49, docs/automation.md). */
    watch: WatchService;
    /** Discovery on push to the organization registry: evaluates subscriptions, applies through the webhook path. */
    watchDiscovery: WatchDiscoveryService;
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
    watchDiscovery: provide(['registry', 'webhooks'], (deps) => {
      const discovery = createWatchDiscovery({
        db: deps.db,
        audit: deps.audit,
        registry: deps.registry,
        imageUpdates: deps.webhooks.imageUpdates,
        log: deps.log,
      });
      deps.registry.addManifestHook(discovery.hook);
      return discovery;
    }),
  },
  reconcilers: (services) => [
    // Discoveries recorded with their push whose evaluation a crash interrupted.
    {
      name: 'watch discovery',
      run: () => services.watchDiscovery.reconcile(services.config.orgs.invitationReconcileIntervalMs),
      intervalMs: services.config.orgs.invitationReconcileIntervalMs,
    },
  ],
  // Like image updates: members change what updates a workload, viewers read it.
  actions: { 'projects.*.watch.read': 'viewer', 'projects.*.watch.update': 'member' },
} satisfies DomainModule;
