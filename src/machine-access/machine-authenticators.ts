import type { Queryable } from '../db/knex';
import type { Authenticator } from '../iam/authenticator';
import type { CredentialRestriction, OrgRole, Principal } from '../iam/principal';
import { higherRole } from '../iam/role-authorizer';
import type { PlanGate } from '../plans/plan-gate';
import { findProjectById } from '../projects/project-repository';
import type { RateLimiter } from '../rate-limit/fixed-window-limiter';
import { findKeyByHash } from './api-key-repository';
import type { KeyScope } from './key-allowlist';
import { touchLastUsed } from './last-used';
import { KEY_PREFIX, TOKEN_PREFIX, isWellFormed, secretHash } from './secret-value';
import { findLiveTokenByHash, type TokenIdentity } from './service-account-repository';

export interface MachineAuthDeps {
  db: Queryable;
  limiter: RateLimiter;
  plans: PlanGate;
  rate: { perCredential: number; windowMs: number };
}

/** The role each key scope stands for: the chain's role floors still apply on top of the path allowlist. */
const KEY_SCOPE_ROLES: Record<KeyScope, OrgRole> = {
  read: 'viewer',
  write: 'member',
  'image:update': 'member',
  admin: 'admin',
};

/** Service account token scopes cap the account's role (and grants): `read` acts as a viewer at most. */
export const TOKEN_SCOPES = ['read', 'write', 'admin'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
const TOKEN_SCOPE_ROLES: Record<TokenScope, OrgRole> = { read: 'viewer', write: 'member', admin: 'admin' };

function strongest(roles: OrgRole[]): OrgRole {
  return roles.reduce<OrgRole | null>((best, r) => higherRole(best, r), null) ?? 'viewer';
}

/** What a service account token narrows its account to: its allowed actions and the role its scopes stand for. */
export function tokenRestriction(found: Pick<TokenIdentity, 'scopes' | 'allowedActions'>): CredentialRestriction {
  const caps = found.scopes.filter((s): s is TokenScope => s in TOKEN_SCOPE_ROLES).map((s) => TOKEN_SCOPE_ROLES[s]);
  return { allowedActions: found.allowedActions, roleCap: strongest(caps), scopes: found.scopes };
}

function limitPerCredential(deps: MachineAuthDeps, kind: string, id: string): Promise<void> {
  return deps.limiter.hit([{ key: `${kind}:${id}`, limit: deps.rate.perCredential }], deps.rate.windowMs);
}

const machine = { userId: null, email: null, isInstanceAdmin: false, actorType: 'service_account' } as const;

/**
 * The organization registry's actions a key may take besides its project's: charts and artifacts the project's
 * workloads use live in the organization registry (pull with `read`, push with `write`; docs/registry.md).
 */
/** Offline manifest validation a pipeline runs with any project key (the allowlist names the three routes). */
const K8S_VALIDATION_ACTIONS = ['k8s.validate', 'k8s.schemas.read'];

function registryActions(scopes: readonly KeyScope[]): string[] {
  const actions = scopes.some((s) => s === 'read' || s === 'write' || s === 'admin') ? ['org.registry.pull'] : [];
  return scopes.some((s) => s === 'write' || s === 'admin') ? [...actions, 'org.registry.push'] : actions;
}

/**
 * Project API keys (`svc_...`): one project, its scopes. The key acts only on its own project's actions
 * (`projects.<slug>.**`, slug as it is now) and on the organization registry as its scopes allow; which paths it may
 * call is the allowlist's job (key-allowlist.ts).
 */
export function apiKeyAuthenticator(deps: MachineAuthDeps): Authenticator {
  return {
    async authenticate(token): Promise<Principal | null> {
      if (!isWellFormed(KEY_PREFIX, token)) return null;
      const key = await findKeyByHash(deps.db, secretHash(token));
      const project = key ? await findProjectById(deps.db, key.organizationId, key.projectId) : null;
      if (!key || !project) return null;
      await limitPerCredential(deps, 'apikey', key.id);
      await touchLastUsed(deps.db, 'project_api_keys', key.id);
      const role = strongest(key.scopes.map((s) => KEY_SCOPE_ROLES[s]));
      return {
        ...machine,
        kind: 'api_key',
        // The id for machines, the name beside it for people reading the audit log and inboxes.
        actor: `api-key:${key.id} (${key.name})`,
        organizationId: key.organizationId,
        role,
        credentialId: key.id,
        restriction: {
          allowedActions: [`projects.${project.slug}.**`, ...registryActions(key.scopes), ...K8S_VALIDATION_ACTIONS],
          roleCap: role,
          scopes: key.scopes,
        },
      };
    },
  };
}

/**
 * Service account tokens (`svcacct_...`): the account's current role and grants, capped by the token's scopes and
 * narrowed by its allowed actions. Expired tokens and tokens of deleted accounts are unknown (401); an organization
 * no longer on the Enterprise plan gets 403 naming the plan.
 */
export function serviceAccountTokenAuthenticator(deps: MachineAuthDeps): Authenticator {
  return {
    async authenticate(token): Promise<Principal | null> {
      if (!isWellFormed(TOKEN_PREFIX, token)) return null;
      const found = await findLiveTokenByHash(deps.db, secretHash(token));
      if (!found) return null;
      await deps.plans.require(found.organizationId, 'service_accounts');
      await limitPerCredential(deps, 'svcacct', found.id);
      await touchLastUsed(deps.db, 'service_account_tokens', found.id);
      return {
        ...machine,
        kind: 'service_account',
        actor: `service-account:${found.serviceAccountId}/token:${found.id} (${found.accountName})`,
        organizationId: found.organizationId,
        role: found.role,
        credentialId: found.id,
        serviceAccountId: found.serviceAccountId,
        restriction: tokenRestriction(found),
      };
    },
  };
}
