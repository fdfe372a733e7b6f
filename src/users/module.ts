import type { DomainModule } from '../runtime/domain-module';

/** What src/users plugs into the platform (src/runtime/domain-module.ts). */
export const usersModule = {
  name: 'users',
  tables: ['users'],
} satisfies DomainModule;
