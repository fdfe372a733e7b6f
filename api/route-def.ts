import type { AppContext } from './context';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Who may call a route. Protected routes name the dotted action the authorization chain checks. */
export type RouteAccess =
  | { kind: 'public' }
  /** Any verified identity, no organization needed (e.g. /auth/me, creating an organization). */
  | {
      kind: 'authenticated';
      action: string;
      /** Machine credentials may call it too (a credential's view of itself); otherwise a user session only. */
      machines?: boolean;
    }
  /**
   * Verified identity with an active organization; the action is checked against role and grants. `scope` fills
   * the action's placeholders from the resource a by-id route names (a release's project slug), so grants and
   * credential restrictions apply to it; it answers 404 (like a missing id) for ids of nothing in the organization.
   */
  | {
      kind: 'organization';
      action: string;
      scope?: (ctx: AppContext) => Promise<Record<string, string>>;
      /**
       * Replaces path values that name a resource in several ways (a tenant by slug or id) by its one canonical id
       * before the action is built, so grants and credential restrictions see the same action whichever name the
       * caller used. Answers 404 for a name of nothing, like a missing id.
       */
      canonical?: (ctx: AppContext) => Promise<Record<string, string>>;
    }
  /** Operators of the instance. */
  | { kind: 'instance-admin'; action: string };

export interface RouteDef {
  method: HttpMethod;
  /** koa-router path, e.g. `/api/v2/audit-logs/:id`. */
  path: string;
  summary: string;
  tag: string;
  access: RouteAccess;
  /** Request body schema id (file name under schemas/requests without .json). */
  body?: string;
  /** Query string schema id. */
  query?: string;
  /** The message of a body that fails its schema, where the spec fixes one (default: the schema's own reason). */
  bodyError?: string;
  /** Success status documented in OpenAPI. */
  status?: number;
  handler: (ctx: AppContext) => Promise<void>;
}
