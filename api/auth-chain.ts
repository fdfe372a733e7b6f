import { Forbidden, InvalidInput, NotFound, Unauthorized } from '../src/errors';
import type { Authenticator } from '../src/iam/authenticator';
import type { Principal } from '../src/iam/principal';
import { checkKeyAccess } from '../src/machine-access/key-allowlist';
import type { AppContext } from './context';
import type { RouteAccess } from './route-def';
import { atLeast, minimumRole, type ActionRoleTable } from '../src/iam/role-authorizer';

/** Role, resource grants and approval policies for a concrete action. Throws Forbidden or NotFound. */
export interface Authorizer {
  authorize(principal: Principal, action: string, ctx: AppContext): Promise<void>;
  readonly actionRoles: ActionRoleTable;
}

/**
 * Fills `{param}` placeholders of an action template from the route parameters. A value with a dot names nothing
 * (no slug or id has one) and would split one segment into several, changing what glob patterns and grants see
 * (docs/security.md KEY-3), so it answers 404 before any check. A placeholder that is no route parameter is filled
 * from the body's top-level field of that name when it is one plain segment (a command name), else it stays `*`
 * (the request's schema then refuses the body).
 */
export function concreteAction(template: string, params: Record<string, string>, body?: unknown): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) {
      const field = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
      return typeof field === 'string' && /^[a-z][a-z0-9-]{0,62}$/.test(field) ? field : '*';
    }
    if (value.includes('.')) throw new NotFound('not found');
    return value;
  });
}

export class AuthChain {
  constructor(
    private readonly authenticators: Authenticator[],
    private readonly authorizer: Authorizer,
  ) {}

  async identify(ctx: AppContext): Promise<Principal> {
    const header = ctx.get('Authorization');
    const match = /^Bearer ([\x21-\x7e]{1,4096})$/.exec(header);
    if (!match?.[1]) throw new Unauthorized('missing or invalid token');
    for (const authenticator of this.authenticators) {
      const principal = await authenticator.authenticate(match[1]);
      if (principal) return principal;
    }
    throw new Unauthorized('missing or invalid token');
  }

  /** `routePath` is the matched route (koa-router syntax): API keys must be on the allowlist for exactly it. */
  async enforce(ctx: AppContext, access: RouteAccess, routePath: string): Promise<void> {
    if (access.kind === 'public') return;
    const principal = await this.identify(ctx);
    checkKeyAccess(principal, ctx.method, ctx.path, routePath);
    ctx.state.principal = principal;
    ctx.state.log = ctx.state.log.child({ actor: principal.actor, orgId: principal.organizationId });
    if (access.kind === 'instance-admin') {
      if (!principal.isInstanceAdmin) throw new Forbidden('instance administrator required');
      return;
    }
    // Identity alone suffices for the caller's own resources (profile, sessions, creating an organization); machine
    // credentials have none of those.
    if (access.kind === 'authenticated') {
      if (principal.kind !== 'user' && !access.machines) throw new Forbidden('a user session is required');
      return;
    }
    if (principal.organizationId === null) throw new InvalidInput('missing organization context');
    if (access.scope) {
      // The role floor now: below it, every id answers the same 403 and nothing is looked up. The resource's own
      // action is authorized by `authorizeScoped` once the request is validated.
      const floor = minimumRole(this.authorizer.actionRoles, concreteAction(access.action, {}));
      if (principal.role !== null && floor !== null && !atLeast(principal.role, floor)) {
        throw new Forbidden(`this action requires the ${floor} role`);
      }
      if (principal.role !== null) return;
    }
    if (access.canonical && principal.role !== null) {
      // A route naming its resource in several ways: at or above the action's role floor the name is resolved after
      // request validation (authorizeScoped); below it only a grant on the resource can allow, so it is checked now.
      const floor = minimumRole(this.authorizer.actionRoles, concreteAction(access.action, {}));
      if (floor === null || atLeast(principal.role, floor)) return;
      const params = { ...(ctx.params ?? {}), ...(await this.canonicalParams(ctx, access.canonical, access.action)) };
      return this.authorizer.authorize(principal, concreteAction(access.action, params, ctx.state.body), ctx);
    }
    await this.authorizer.authorize(principal, concreteAction(access.action, ctx.params ?? {}, ctx.state.body), ctx);
  }

  /**
   * The second half of a by-id route's authorization (after `enforce` and request validation): the resource's
   * placeholders come from `scope` (404 like a missing id) or `canonical`, then role, grants and approval policies
   * decide.
   */
  async authorizeScoped(ctx: AppContext, access: RouteAccess): Promise<void> {
    const principal = ctx.state.principal;
    if (access.kind !== 'organization' || !principal) return;
    if (access.scope) {
      const params = { ...(ctx.params ?? {}), ...(await access.scope(ctx)) };
      await this.authorizer.authorize(principal, concreteAction(access.action, params, ctx.state.body), ctx);
    } else if (access.canonical && principal.role !== null) {
      const params = { ...(ctx.params ?? {}), ...(await this.canonicalParams(ctx, access.canonical, access.action)) };
      await this.authorizer.authorize(principal, concreteAction(access.action, params, ctx.state.body), ctx);
    }
  }

  /**
   * The canonical ids of the names in the path. A name of nothing answers 404 only to a caller the action is open to
   * by role or grant; anyone else gets the 403 they get for any name, so no lookup tells them which names exist.
   */
  private async canonicalParams(
    ctx: AppContext,
    canonical: (ctx: AppContext) => Promise<Record<string, string>>,
    action: string,
  ): Promise<Record<string, string>> {
    try {
      return await canonical(ctx);
    } catch (err) {
      if (err instanceof NotFound && ctx.state.principal) {
        await this.authorizer.authorize(
          ctx.state.principal,
          concreteAction(action, ctx.params ?? {}, ctx.state.body),
          ctx,
        );
      }
      throw err;
    }
  }
}
