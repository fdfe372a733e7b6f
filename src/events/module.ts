import type { DomainModule } from '../runtime/domain-module';

/** What src/events plugs into the platform (src/runtime/domain-module.ts). */
export const eventsModule = {
  name: 'events',
  tables: ['domain_events'],
} satisfies DomainModule;
