import type { Next } from 'koa';
import { AppError } from '../../src/errors';
import { unavailableDependency } from '../../src/http/unavailable-dependency';
import { errorFields } from '../../src/logging/logger';
import type { AppContext } from '../context';

/** The single place where errors become HTTP: `{"error": "<plain message>"}`, no stack, no SQL. */
export function errorHandler() {
  return async (ctx: AppContext, next: Next): Promise<void> => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = { error: 'not found' };
      }
    } catch (err: unknown) {
      if (err instanceof AppError) {
        ctx.status = err.status;
        ctx.body = { ...err.fields, error: err.message };
        for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
        if (err.status >= 500) ctx.state.log.warn('request failed', errorFields(err));
        return;
      }
      const down = unavailableDependency(err);
      if (down) {
        // An outage of an engine, not a fault: 503 tells clients and load balancers to retry (readiness agrees).
        ctx.state.log.warn('dependency unavailable', { dependency: down, ...errorFields(err) });
        ctx.status = 503;
        ctx.set('Retry-After', '5');
        ctx.body = { error: `service unavailable: ${down} is unreachable, retry later` };
        return;
      }
      ctx.state.log.error('unhandled error', errorFields(err));
      ctx.status = 500;
      ctx.body = { error: 'internal server error' };
    }
  };
}
