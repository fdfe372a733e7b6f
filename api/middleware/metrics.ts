import type { Next } from 'koa';
import type { Metrics } from '../../src/http/metrics';
import type { AppContext } from '../context';

/** Times every request, labelled by route template (never the raw path, which would explode cardinality). */
export function requestMetrics(metrics: Metrics) {
  return async (ctx: AppContext, next: Next): Promise<void> => {
    const end = metrics.httpDuration.startTimer();
    try {
      await next();
    } finally {
      const matched = (ctx as unknown as { _matchedRoute?: unknown })._matchedRoute;
      const route = typeof matched === 'string' ? matched : 'unmatched';
      end({ route, method: ctx.method, status: String(ctx.status) });
    }
  };
}
