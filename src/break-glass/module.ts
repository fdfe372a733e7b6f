import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createBreakGlassService, type BreakGlassService } from './break-glass-service';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Break-glass sessions as workflows `break-glass-<id>` and who may open them (src/break-glass). */
    breakGlass: BreakGlassService;
  }
}

/** What src/break-glass plugs into the platform (src/runtime/domain-module.ts). */
export const breakGlassModule = {
  name: 'break-glass',
  tables: ['break_glass_sessions', 'break_glass_settings'],
  workflows: ['breakGlassWorkflow'],
  settings: 'governance',
  services: {
    breakGlass: provide([], (core) =>
      createBreakGlassService({
        ...owned(core),
        temporal: core.temporal,
        workflows: core.workflows,
        minuteMs: core.config.governance.breakGlassMinuteMs,
      }),
    ),
  },
  actions: {
    // Break-glass: any member may ask to open a session, the organization's allowed roles (default owner, admin)
    // decide in the service; members read sessions; closing is for the holder or an admin (checked in the service).
    'org.break-glass.open': 'viewer',
    'org.break-glass.read': 'member',
    'org.break-glass.close': 'viewer',
    'org.break-glass.settings.read': 'admin',
    'org.break-glass.settings.update': 'owner',
  },
} satisfies DomainModule;
