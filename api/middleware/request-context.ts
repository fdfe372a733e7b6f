import { randomUUID } from 'node:crypto';
import type { Next } from 'koa';
import type { Logger } from '../../src/logging/logger';
import type { AppContext } from '../context';

const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Accepts a well-formed X-Request-Id or makes one, echoes it, binds it to every log line, logs the request once. */
export function requestContext(log: Logger) {
  return async (ctx: AppContext, next: Next): Promise<void> => {
    const offered = ctx.get('X-Request-Id');
    const requestId = ACCEPTED_ID.test(offered) ? offered : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = log.child({ requestId });
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      ctx.state.log.info('request', {
        method: ctx.method,
        // The route template, never the raw path: paths can carry secrets (invitation tokens).
        route:
          typeof (ctx as unknown as { _matchedRoute?: unknown })._matchedRoute === 'string'
            ? (ctx as unknown as { _matchedRoute: string })._matchedRoute
            : 'unmatched',
        status: ctx.status,
        ms: Math.round(ms * 10) / 10,
      });
    }
  };
}
