import type { DomainModule } from '../runtime/domain-module';
import { freezeRoutes } from '../../api/routes/freezes/freeze-routes';

/** What src/freezes plugs into the platform (src/runtime/domain-module.ts). */
export const freezesModule = {
  name: 'freezes',
  tables: ['freeze_switches', 'freeze_windows'],
  settings: 'governance',
  routes: (services) => freezeRoutes(services.freezes),
} satisfies DomainModule;
