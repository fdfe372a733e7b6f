import type { DomainModule } from '../runtime/domain-module';
import { owned, provide } from '../runtime/service-provider';
import { createMetricSourceService, type MetricSourceService } from './metric-source-service';
import { metricSourceRoutes } from '../../api/routes/verification/metric-source-routes';
import { createVerificationActivities } from '../../activities/verification';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** The organization's metric sources, which rollout verification queries (src/verification). */
    metricSources: MetricSourceService;
  }
}

/** What src/verification plugs into the platform (src/runtime/domain-module.ts). */
export const verificationModule = {
  name: 'verification',
  tables: ['metric_sources'],
  routes: (services) => metricSourceRoutes(services.metricSources, services.config.orgs.pageMax),
  activities: (deps) =>
    createVerificationActivities({
      metricSources: deps.metricSources,
      outbound: deps.config.notifications.outbound,
      limits: deps.config.notifications.limits,
    }),
  services: {
    metricSources: provide([], (core) =>
      createMetricSourceService({
        ...owned(core),
        secrets: core.secrets,
        outbound: core.config.notifications.outbound,
      }),
    ),
  },
  actions: {
    // Configuration (admins); members read them (a rollout's checks name them).
    'org.metric-sources.read': 'member',
    'org.metric-sources.create': 'admin',
    'org.metric-sources.update': 'admin',
    'org.metric-sources.delete': 'admin',
  },
} satisfies DomainModule;
