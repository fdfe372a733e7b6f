import type { DomainModule } from '../runtime/domain-module';
import { provide } from '../runtime/service-provider';
import { RELEASE_KINDS_SQL, releaseKinds } from '../releases/release-repository';
import { createDeliveryMetrics } from './delivery-metrics';
import { createDeploymentHistory } from './deployment-history-service';
import { createDeploymentService, type DeploymentService } from './deployment-service';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** What runs where: the deployments matrix and environment soak times (src/deployments). */
    deployments: DeploymentService;
    /** The matrix at a past instant and the changes between two instants (issue 47). */
    deploymentHistory: ReturnType<typeof createDeploymentHistory>;
    /** Delivery metrics computed from the deployments history (issue 47). */
    deliveryMetrics: ReturnType<typeof createDeliveryMetrics>;
  }
}

/** What src/deployments plugs into the platform (src/runtime/domain-module.ts). */
export const deploymentsModule = {
  name: 'deployments',
  tables: ['deployed_target_events', 'deployed_targets', 'deployment_revisions', 'deployment_soak_times'],
  services: {
    deployments: provide(['projects'], (deps) =>
      createDeploymentService({ db: deps.db, audit: deps.audit, projects: deps.projects.projects }),
    ),
    // The history and the metrics name releases: src/releases' reads, passed in (deployments sits below releases).
    deploymentHistory: provide(['projects'], (deps) =>
      createDeploymentHistory({
        db: deps.db,
        projects: deps.projects.projects,
        releaseKinds: (organizationId, ids) => releaseKinds(deps.db, organizationId, ids),
      }),
    ),
    deliveryMetrics: provide(['projects'], (deps) =>
      createDeliveryMetrics({ db: deps.db, projects: deps.projects.projects, releases: RELEASE_KINDS_SQL }),
    ),
  },
  actions: {
    // What runs where is read by every viewer; the soak time gates promotions: project administration.
    'projects.*.deployments.read': 'viewer',
    'projects.*.deployments.soak.update': 'admin',
  },
} satisfies DomainModule;
