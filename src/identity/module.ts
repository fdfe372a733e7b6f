import type { DomainModule } from '../runtime/domain-module';
import { authRoutes } from '../../api/routes/auth/auth-routes';

/** What src/identity plugs into the platform (src/runtime/domain-module.ts). */
export const identityModule = {
  name: 'identity',
  tables: [
    'email_tokens',
    // The deployment's key canary (src/identity/key-canary.ts), checked by every process.
    'key_canary',
    'mfa_challenges',
    'mfa_recovery_codes',
    'oauth_identities',
    'oauth_states',
    'refresh_tokens',
    'session_families',
    'user_mfa',
  ],
  settings: 'identity',
  routes: (services) => authRoutes(services.identity),
} satisfies DomainModule;
