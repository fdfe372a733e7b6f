import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createFreezeService, type FreezeService } from './freeze-service';

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
  actions: {
    // Freeze windows (issue 11): every member sees what is frozen; admins and owners manage windows and stop the line.
    'org.freezes.read': 'viewer',
    'org.freezes.manage': 'admin',
    'org.freezes.stop-the-line': 'admin',
    'projects.*.freezes.read': 'viewer',
    'projects.*.freezes.manage': 'admin',
  },
} satisfies DomainModule;
