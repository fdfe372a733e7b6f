import type { DomainModule } from '../runtime/domain-module';
import { provide } from '../runtime/service-provider';
import { createWatchService, type WatchService } from './watch-service';
import { createWatchDiscovery, type WatchDiscoveryService } from './watch-discovery';
import { createWatchRegistryService, type WatchRegistryService } from './watch-registry-service';
import { createRegistryPoller, type RegistryPoller } from './registry-poller';
import { createSafeSender } from '../net/safe-http';
import { createPlatformCreated } from './platform-created';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Watch subscriptions and discoveries of new versions (issue 49, docs/automation.md). */
    watch: WatchService;
    /** Discovery on push to the organization registry: evaluates subscriptions, applies through the webhook path. */
    watchDiscovery: WatchDiscoveryService;
    /** External registries of an organization, each polled by its workflow. */
    watchRegistries: WatchRegistryService;
    /** One poll of one external registry (the workflow's activity). */
    watchPoller: RegistryPoller;
  }
}

/** What src/watch plugs into the platform (src/runtime/domain-module.ts). */
export const watchModule = {
  name: 'watch',
  tables: ['watch_discoveries', 'watch_registries', 'watch_registry_repositories', 'watch_subscriptions'],
  workflows: ['watchRegistryWorkflow'],
  settings: 'watch',
  services: {
    watch: provide(['projects'], (deps) =>
      createWatchService({ db: deps.db, audit: deps.audit, projects: deps.projects.projects }),
    ),
    watchDiscovery: provide(['registry', 'webhooks'], (deps) => {
      const discovery = createWatchDiscovery({
        db: deps.db,
        audit: deps.audit,
        registry: deps.registry,
        created: createPlatformCreated({ registry: deps.registry }),
        imageUpdates: deps.webhooks.imageUpdates,
        log: deps.log,
      });
      deps.registry.addManifestHook(discovery.hook);
      return discovery;
    }),
    watchRegistries: provide([], (deps) =>
      createWatchRegistryService({
        db: deps.db,
        audit: deps.audit,
        secrets: deps.secrets,
        outbound: deps.config.notifications.outbound,
        workflows: deps.workflows,
        config: deps.config.watch,
      }),
    ),
    watchPoller: provide(['watchDiscovery'], (deps) =>
      createRegistryPoller({
        db: deps.db,
        secrets: deps.secrets,
        // The outbound address policy and limits of notification targets; a tag list may be larger than a reply.
        send: createSafeSender(deps.config.notifications.outbound, {
          ...deps.config.notifications.limits,
          responseCapBytes: 4 * 1024 * 1024,
        }),
        discovery: deps.watchDiscovery,
        settings: deps.config.watch,
      }),
    ),
  },
  reconcilers: (services) => [
    // Discoveries recorded with their push whose evaluation a crash interrupted.
    {
      name: 'watch discovery',
      run: () => services.watchDiscovery.reconcile(services.config.orgs.invitationReconcileIntervalMs),
      intervalMs: services.config.orgs.invitationReconcileIntervalMs,
    },
    // One poll workflow per external registry: started after its row committed, or here when that start failed.
    {
      name: 'watch registry workflows',
      run: () => services.watchRegistries.reconcile(),
      intervalMs: services.config.orgs.invitationReconcileIntervalMs,
    },
  ],
  // Like image updates: members change what updates a workload, viewers read it.
  // External registries are the organization's: members read them, admins add and remove them (credentials).
  actions: {
    'projects.*.watch.read': 'viewer',
    'projects.*.watch.update': 'member',
    'org.watch-registries.read': 'member',
    'org.watch-registries.create': 'admin',
    'org.watch-registries.delete': 'admin',
  },
} satisfies DomainModule;
