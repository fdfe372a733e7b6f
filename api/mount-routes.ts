import Router from '@koa/router';
import type { Next } from 'koa';
import { refuseIllFormedText } from '../src/http/text-guard';
import { InvalidInput } from '../src/errors';
import type { SchemaValidator } from '../src/http/schema-validator';
import type { AppContext, AppState } from './context';
import type { RouteDef } from './route-def';
import type { AuthChain } from './auth-chain';

/** Path parameters are checked against this schema: a route may only use a parameter name it declares. */
const PATH_PARAMS = 'path-params';

/**
 * Every route goes through the same chain in the same order: refusal of text PostgreSQL cannot store (NUL
 * characters), identity, organization context, authorization of the declared action, request validation (path
 * parameters, query, body), the resource-scoped part of authorization for by-id routes, then the thin handler.
 */
export function mountRoutes(routes: RouteDef[], auth: AuthChain, schemas: SchemaValidator): Router<AppState> {
  const router = new Router<AppState>();
  const declaredParams = Object.keys(schemas.schema(PATH_PARAMS).properties as Record<string, unknown>);
  for (const route of routes) {
    if (route.access.kind !== 'public' && !route.access.action) {
      throw new Error(`route ${route.method.toUpperCase()} ${route.path} declares no action`);
    }
    for (const [, name] of route.path.matchAll(/:(\w+)/g)) {
      if (!declaredParams.includes(name!))
        throw new Error(`route ${route.path}: parameter ${name} not in ${PATH_PARAMS}`);
    }
    const stack = [
      async (ctx: AppContext, next: Next) => {
        refuseIllFormedText({ path: ctx.params, query: ctx.query, body: ctx.state.body });
        await auth.enforce(ctx, route.access, route.path);
        schemas.check(PATH_PARAMS, { ...ctx.params }, 'path');
        if (route.query) schemas.check(route.query, { ...ctx.query }, 'query');
        if (route.body) checkBody(schemas, route.body, ctx.state.body ?? {}, route.bodyError);
        await auth.authorizeScoped(ctx, route.access);
        return next();
      },
      async (ctx: AppContext) => {
        await route.handler(ctx);
        if (route.status && ctx.status === 200 && ctx.body !== undefined) ctx.status = route.status;
      },
    ];
    router.register(route.path, [route.method.toUpperCase()], stack);
  }
  return router;
}

function checkBody(schemas: SchemaValidator, id: string, body: unknown, fixedMessage: string | undefined): void {
  try {
    schemas.check(id, body, 'body');
  } catch (err) {
    if (fixedMessage && err instanceof InvalidInput) throw new InvalidInput(fixedMessage);
    throw err;
  }
}
