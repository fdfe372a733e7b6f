import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createFreezeService, type FreezeService } from './freeze-service';
import { freezeRoutes } from '../../api/routes/freezes/freeze-routes';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Freeze windows of projects and the organization, with the stop-the-line switch (src/freezes). */
    freezes: FreezeService;
  }
}

/** What src/freezes plugs into the platform (src/runtime/domain-module.ts). */
export const freezesModule = {
  name: 'freezes',
  tables: ['freeze_switches', 'freeze_windows'],
  settings: 'governance',
  routes: (services) => freezeRoutes(services.freezes),
  services: {
    freezes: provide(['projects', 'plans'], (deps) =>
      createFreezeService({
        ...owned(deps),
        projects: deps.projects.projects,
        horizonMs: deps.config.governance.freezeHorizonMs,
        plans: deps.plans,
        limiter: deps.limiter,
      }),
    ),
  },
} satisfies DomainModule;
