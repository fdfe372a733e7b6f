import Router from '@koa/router';
import type { Next } from 'koa';
import type { SchemaValidator } from '../src/http/schema-validator';
import type { AppContext, AppState } from './context';
import type { RouteDef } from './route-def';
import type { AuthChain } from './auth-chain';

/**
 * Every route goes through the same chain in the same order: identity, organization context, authorization of the
 * declared action, request validation, then the thin handler.
 */
export function mountRoutes(routes: RouteDef[], auth: AuthChain, schemas: SchemaValidator): Router<AppState> {
  const router = new Router<AppState>();
  for (const route of routes) {
    if (route.access.kind !== 'public' && !route.access.action) {
      throw new Error(`route ${route.method.toUpperCase()} ${route.path} declares no action`);
    }
    const stack = [
      async (ctx: AppContext, next: Next) => {
        await auth.enforce(ctx, route.access);
        if (route.query) schemas.check(route.query, { ...ctx.query }, 'query');
        if (route.body) schemas.check(route.body, ctx.state.body ?? {}, 'body');
        return next();
      },
      async (ctx: AppContext) => {
        await route.handler(ctx);
        if (route.status && ctx.status === 200 && ctx.body !== undefined) ctx.status = route.status;
      },
    ];
    router.register(route.path, [route.method.toUpperCase()], stack as never);
  }
  return router;
}
