import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createReleaseService, type ReleaseService } from './release-service';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Releases as workflows `release-<id>` (src/releases). */
    releases: ReleaseService;
  }
}

/** What src/releases plugs into the platform (src/runtime/domain-module.ts). */
export const releasesModule = {
  name: 'releases',
  tables: ['release_approvals', 'releases'],
  workflows: ['releaseWorkflow'],
  settings: 'releases',
  reconcilers: (services) => [
    {
      name: 'release',
      run: () => services.releases.reconcile(),
      intervalMs: services.config.releases.reconcileIntervalMs,
    },
  ],
  services: {
    releases: provide(['projects', 'repositories', 'sources', 'governance', 'releasePolicies'], (deps) =>
      createReleaseService({
        ...owned(deps),
        temporal: deps.temporal,
        workflows: deps.workflows,
        projects: deps.projects.projects,
        tenants: deps.projects.tenants,
        taskQueuePrefix: deps.config.temporal.taskQueuePrefix,
        timing: {
          syncTimeoutMs: deps.config.releases.syncTimeoutMs,
          queuePollMs: deps.config.releases.queuePollMs,
          commitPatienceMs: deps.config.gitops.commitPatienceMs,
        },
        namespace: deps.config.temporal.namespace,
        temporalUiUrl: deps.config.releases.temporalUiUrl,
        repositories: deps.repositories,
        publicUrl: deps.config.publicUrl,
        sources: deps.sources,
        governance: deps.governance,
        evaluation: { validation: deps.validation, releasePolicies: deps.releasePolicies },
      }),
    ),
  },
  actions: {
    'projects.*.releases.read': 'viewer',
    'projects.*.releases.create': 'member',
    'projects.*.releases.approve': 'member',
    'projects.*.releases.deploy': 'member',
    'projects.*.releases.cancel': 'member',
  },
} satisfies DomainModule;
