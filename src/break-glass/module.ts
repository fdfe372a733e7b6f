import type { DomainModule } from '../runtime/domain-module';
import { breakGlassRoutes } from '../../api/routes/break-glass/break-glass-routes';
import { createBreakGlassActivities } from '../../activities/break-glass';

/** What src/break-glass plugs into the platform (src/runtime/domain-module.ts). */
export const breakGlassModule = {
  name: 'break-glass',
  tables: ['break_glass_sessions', 'break_glass_settings'],
  workflows: ['breakGlassWorkflow'],
  settings: 'governance',
  routes: (services) => breakGlassRoutes(services.breakGlass, services.config.orgs.pageMax),
  activities: (deps) => createBreakGlassActivities(deps),
} satisfies DomainModule;
