import type { DomainModule } from '../runtime/domain-module';
import { provide } from '../runtime/service-provider';
import { createTargetRemoval, type TargetRemoval } from './target-removal';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Safe removal of a project environment, tenant, workload or agent binding (src/environment-removal). */
    removal: TargetRemoval;
  }
}

const NEEDS = [
  'projects',
  'clusters',
  'repositories',
  'gitops',
  'sources',
  'releases',
  'promotions',
  'pins',
  'breakGlass',
  'freezes',
  'webhooks',
  'tenants',
  'environments',
] as const;

/** What src/environment-removal plugs into the platform (src/runtime/domain-module.ts); its routes are the owners'. */
export const environmentRemovalModule = {
  name: 'environment-removal',
  tables: [],
  services: {
    removal: provide(NEEDS, (deps) =>
      createTargetRemoval({
        db: deps.db,
        projects: deps.projects.projects,
        tenants: deps.projects.tenants,
        workloads: deps.projects.workloads,
        bindings: deps.clusters.bindings,
        repositories: deps.repositories,
        commit: deps.gitops.commit,
        publicUrl: deps.config.publicUrl,
        sources: deps.sources,
        releases: deps.releases,
        promotions: deps.promotions,
        pins: deps.pins,
        breakGlass: deps.breakGlass,
        freezes: deps.freezes,
        webhookSettings: deps.webhooks.settings,
        catalogue: { tenants: deps.tenants, environments: deps.environments },
      }),
    ),
  },
} satisfies DomainModule;
