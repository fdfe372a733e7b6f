import type { SecretBox } from '../identity/mfa/secret-box';
import type { Principal } from '../iam/principal';

export type RegistryAction = 'pull' | 'push' | 'delete';
export const REGISTRY_ACTIONS: readonly RegistryAction[] = ['pull', 'push', 'delete'];

/** What a registry token lets its bearer do on one repository (`<org slug>/<name>`). */
export interface RepositoryAccess {
  name: string;
  actions: RegistryAction[];
  /** Actions asked for and refused by the authorization chain: a request needing one answers DENIED, not 401. */
  denied: RegistryAction[];
}

/** The claims of a registry token: who, in which organization, and the repositories it was scoped to. */
export interface RegistryGrant {
  principal: Principal;
  organizationSlug: string | null;
  access: RepositoryAccess[];
  /** `registry:catalog:*` granted. */
  catalog: boolean;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

const AAD = 'oci-registry-token';

/**
 * Short-lived registry tokens, sealed (AES-256-GCM) with the platform's secret box so any API process can read one
 * another issued. The role inside is the one at issuance: a removal takes effect when the token expires
 * (REGISTRY_TOKEN_TTL_SECONDS, 5 minutes by default), as with any Docker-style registry token.
 */
export function createRegistryTokens(box: SecretBox) {
  return {
    issue(grant: RegistryGrant): string {
      return box.seal(JSON.stringify(grant), AAD);
    },
    verify(token: string, nowSeconds: number): RegistryGrant | null {
      try {
        const grant = JSON.parse(box.open(token, AAD)) as RegistryGrant;
        return grant.exp > nowSeconds ? grant : null;
      } catch {
        return null;
      }
    },
  };
}
export type RegistryTokens = ReturnType<typeof createRegistryTokens>;

/** `repository:<name>:<actions>` scopes of a token request (several `scope` parameters, or space-separated). */
export function parseScopes(scopes: string[]): {
  repositories: { name: string; actions: RegistryAction[] }[];
  catalog: boolean;
} {
  const repositories: { name: string; actions: RegistryAction[] }[] = [];
  let catalog = false;
  for (const scope of scopes.flatMap((s) => s.split(' ')).filter(Boolean)) {
    const [type, name, actions] = [
      scope.slice(0, scope.indexOf(':')),
      ...splitLast(scope.slice(scope.indexOf(':') + 1)),
    ];
    if (type === 'registry' && name === 'catalog') catalog = true;
    if (type !== 'repository' || !name) continue;
    const wanted = actions
      .split(',')
      .flatMap((a) => (a === '*' ? REGISTRY_ACTIONS : REGISTRY_ACTIONS.filter((r) => r === a)));
    repositories.push({ name, actions: [...new Set(wanted)] });
  }
  return { repositories, catalog };
}

function splitLast(text: string): [string, string] {
  const at = text.lastIndexOf(':');
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
}
