import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import type { Authenticator } from '../iam/authenticator';
import { createApiKeyService, type ApiKeyService } from './api-key-service';
import { apiKeyAuthenticator, serviceAccountTokenAuthenticator } from './machine-authenticators';
import { createServiceAccountService, type ServiceAccountService } from './service-account-service';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Project API keys and service accounts with their tokens (src/machine-access). */
    apiKeys: ApiKeyService;
    serviceAccounts: ServiceAccountService;
    /** Bearer authenticators of the machine credentials, for the dispatcher in api/app.ts. */
    machineAuth: { apiKey: Authenticator; serviceAccountToken: Authenticator };
  }
}

/** What src/machine-access plugs into the platform (src/runtime/domain-module.ts). */
export const machineAccessModule = {
  name: 'machine-access',
  tables: ['project_api_keys', 'service_account_tokens', 'service_accounts'],
  services: {
    apiKeys: provide(['projects', 'plans'], (deps) =>
      createApiKeyService({ ...owned(deps), projects: deps.projects.projects, plans: deps.plans }),
    ),
    serviceAccounts: provide(['plans'], (deps) => createServiceAccountService({ ...owned(deps), plans: deps.plans })),
    machineAuth: provide(['plans'], (deps) => {
      const machineAuth = {
        db: deps.db,
        limiter: deps.limiter,
        plans: deps.plans,
        rate: {
          perCredential: deps.config.orgs.machineRatePerCredential,
          windowMs: deps.config.orgs.machineRateWindowMs,
        },
      };
      return {
        apiKey: apiKeyAuthenticator(machineAuth),
        serviceAccountToken: serviceAccountTokenAuthenticator(machineAuth),
      };
    }),
  },
  actions: {
    // Service accounts (Enterprise plan) and their tokens: organization credentials, so administration.
    'org.service-accounts.read': 'admin',
    'org.service-accounts.create': 'admin',
    'org.service-accounts.update': 'admin',
    'org.service-accounts.delete': 'admin',
    'org.service-accounts.tokens.read': 'admin',
    'org.service-accounts.tokens.create': 'admin',
    'org.service-accounts.tokens.delete': 'admin',
    // Project API keys: credentials of the project, so project administration.
    'projects.*.api-keys.read': 'admin',
    'projects.*.api-keys.create': 'admin',
    'projects.*.api-keys.delete': 'admin',
  },
} satisfies DomainModule;
