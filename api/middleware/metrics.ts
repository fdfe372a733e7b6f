import type { Next } from 'koa';
import type { Metrics } from '../../src/http/metrics';
import type { AppContext } from '../context';

/** Bound children kept at most; past it (never with real route templates) each request looks its labels up. */
const MAX_BOUND = 2_000;

/**
 * Times every request, labelled by route template (never the raw path, which would explode cardinality). The
 * histogram's child for each route, method and status is looked up once and kept, so a request costs one map lookup
 * and one observe, not a label object, a label hash and a timer closure (issue 34 item 5).
 */
export function requestMetrics(metrics: Metrics) {
  const bound = new Map<string, { observe(seconds: number): void }>();
  const childOf = (route: string, method: string, status: string) => {
    const key = `${method} ${status} ${route}`;
    let child = bound.get(key);
    if (!child) {
      child = metrics.httpDuration.labels(route, method, status);
      if (bound.size < MAX_BOUND) bound.set(key, child);
    }
    return child;
  };
  return async (ctx: AppContext, next: Next): Promise<void> => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const matched = (ctx as unknown as { _matchedRoute?: unknown })._matchedRoute;
      const route = typeof matched === 'string' ? matched : 'unmatched';
      childOf(route, ctx.method, String(ctx.status)).observe(Number(process.hrtime.bigint() - started) / 1e9);
    }
  };
}
