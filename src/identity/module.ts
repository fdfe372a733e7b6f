import type { DomainModule } from '../runtime/domain-module';

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
} satisfies DomainModule;
