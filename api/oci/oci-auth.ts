import type { Authenticator } from '../../src/iam/authenticator';
import type { AuthorizationChain } from '../../src/iam/authorization-chain';
import type { Principal } from '../../src/iam/principal';
import type { CallerScope } from '../../src/views/caller-scope';
import { OciError } from '../../src/registry/oci-errors';
import {
  parseScopes,
  type RegistryAction,
  type RegistryGrant,
  type RegistryTokens,
} from '../../src/registry/registry-token';
import type { AppContext } from '../context';

/** The authorization chain's action behind each registry action (src/registry/module.ts gives their roles). */
export const REGISTRY_ACTION_NAMES: Record<RegistryAction, string> = {
  pull: 'org.registry.pull',
  push: 'org.registry.push',
  delete: 'org.registry.delete',
};

export interface OciAuthDeps {
  callerScope: CallerScope;
  /**
   * Every credential type of the platform (user access tokens now; project API keys and service account tokens join
   * this list in api/app.ts, and then work as registry passwords with no change here).
   */
  authenticators: Authenticator[];
  authorization: AuthorizationChain;
  tokens: RegistryTokens;
  tokenTtlSeconds: number;
}

/** 401 with the Bearer challenge; the realm is this server as the client reached it (trusted proxies honoured). */
export function challenge(ctx: AppContext, scope: string | null, message = 'authentication required'): OciError {
  const err = new OciError('UNAUTHORIZED', message);
  err.headers['WWW-Authenticate'] =
    `Bearer realm="${ctx.protocol}://${ctx.host}/v2/token",service="${ctx.host}"` + (scope ? `,scope="${scope}"` : '');
  return err;
}

/** The principal of a Basic header whose password is a platform credential, null when there is no Basic header. */
async function basicPrincipal(ctx: AppContext, deps: OciAuthDeps): Promise<Principal | null> {
  const match = /^Basic ([A-Za-z0-9+/=]{1,8192})$/.exec(ctx.get('Authorization'));
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const secret = decoded.slice(decoded.indexOf(':') + 1);
  for (const authenticator of deps.authenticators) {
    const principal = secret ? await authenticator.authenticate(secret) : null;
    if (principal) return principal;
  }
  throw challenge(ctx, null, 'invalid credentials: use an access token as the password');
}

/** A grant for the scopes asked, each action decided by the authorization chain for the principal's organization. */
async function grantFor(deps: OciAuthDeps, principal: Principal, scopes: string[]): Promise<RegistryGrant> {
  const org = await deps.callerScope.organizationOf(principal);
  const wanted = parseScopes(scopes);
  const access = [];
  for (const { name, actions } of wanted.repositories) {
    const own = org !== null && name.startsWith(`${org.slug}/`);
    const allowed: RegistryAction[] = [];
    const denied: RegistryAction[] = [];
    for (const action of actions) {
      const decision = own ? await deps.authorization.decide(principal, REGISTRY_ACTION_NAMES[action]) : null;
      (decision?.allowed ? allowed : denied).push(action);
    }
    access.push({ name, actions: allowed, denied });
  }
  const catalog = wanted.catalog && (await deps.authorization.decide(principal, 'org.registry.pull')).allowed;
  const exp = Math.floor(Date.now() / 1000) + deps.tokenTtlSeconds;
  return { principal, organizationSlug: org?.slug ?? null, access, catalog, exp };
}

/** `GET /v2/token`: Basic credentials in, a short-lived registry token for the scopes asked out. */
export async function issueToken(ctx: AppContext, deps: OciAuthDeps): Promise<void> {
  const principal = await basicPrincipal(ctx, deps);
  if (!principal) throw challenge(ctx, null);
  const scope = ctx.query.scope;
  const grant = await grantFor(deps, principal, scope === undefined ? [] : Array.isArray(scope) ? scope : [scope]);
  const token = deps.tokens.issue(grant);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = {
    token,
    access_token: token,
    expires_in: deps.tokenTtlSeconds,
    issued_at: new Date().toISOString(),
  };
}

/**
 * The grant of a `/v2/*` request for one repository scope: a registry token (Bearer), or a platform credential sent
 * as Basic (decided on the spot). No credential answers 401 with the challenge naming the scope needed.
 */
export async function requestGrant(ctx: AppContext, deps: OciAuthDeps, scope: string | null): Promise<RegistryGrant> {
  const bearer = /^Bearer (\S{1,8192})$/.exec(ctx.get('Authorization'))?.[1];
  if (bearer) {
    const grant = deps.tokens.verify(bearer, Math.floor(Date.now() / 1000));
    if (!grant) throw challenge(ctx, scope, 'the registry token is invalid or expired');
    return grant;
  }
  const principal = await basicPrincipal(ctx, deps);
  if (!principal) throw challenge(ctx, scope);
  return grantFor(deps, principal, scope ? [scope] : []);
}

/**
 * Checks that the grant allows `action` on `<orgSlug>/<name>`. Another organization's repository answers NAME_UNKNOWN
 * (as a missing one would). An action outside the token's scopes is decided by the authorization chain for the
 * token's principal (clients such as oras reuse a pull token for a push): DENIED when the role does not allow it.
 */
export async function requireAccess(
  deps: OciAuthDeps,
  grant: RegistryGrant,
  fullName: string,
  action: RegistryAction,
): Promise<{ organizationId: string; name: string }> {
  const slug = grant.organizationSlug;
  const organizationId = grant.principal.organizationId;
  if (slug === null || !fullName.startsWith(`${slug}/`) || organizationId === null) {
    throw new OciError('NAME_UNKNOWN', 'repository name not known to registry');
  }
  const access = grant.access.find((a) => a.name === fullName);
  const allowed =
    access?.actions.includes(action) ||
    (!access?.denied.includes(action) &&
      (await deps.authorization.decide(grant.principal, REGISTRY_ACTION_NAMES[action])).allowed);
  if (!allowed) throw new OciError('DENIED', `your role does not allow ${action} on this repository`);
  return { organizationId, name: fullName.slice(slug.length + 1) };
}
