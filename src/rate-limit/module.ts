import type { DomainModule } from '../runtime/domain-module';

/** What src/rate-limit plugs into the platform (src/runtime/domain-module.ts). */
export const rateLimitModule = {
  name: 'rate-limit',
  tables: ['login_failures', 'rate_limit_counters'],
} satisfies DomainModule;
