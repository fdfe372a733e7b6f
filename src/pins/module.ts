import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createPinService, type PinService } from './pin-service';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Pinned tenants and environments (a rollback pins; src/pins). */
    pins: PinService;
  }
}

/** What src/pins plugs into the platform (src/runtime/domain-module.ts). */
export const pinsModule = {
  name: 'pins',
  tables: ['target_pins'],
  services: {
    pins: provide(['projects'], (deps) =>
      createPinService({ ...owned(deps), projects: deps.projects.projects, tenants: deps.projects.tenants }),
    ),
  },
  actions: {
    'tenants.*.rollback.preview': 'viewer',
    'tenants.*.rollback': 'member',
    'tenants.*.pin.read': 'viewer',
    'tenants.*.pin.remove': 'admin',
    'projects.*.pins.read': 'viewer',
  },
} satisfies DomainModule;
