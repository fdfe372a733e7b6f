import type { Middleware, Next } from 'koa';
import type { AppContext, AppState } from '../context';

/** Every API route lives under this prefix; nothing but the API answers there (api/web-ui/ui-routes.ts). */
export const API_PREFIX = '/api/';

/**
 * Runs a middleware only for paths outside `/api/` (the web UI, Git over HTTP, the OCI registry): an API request goes
 * straight on with one prefix check instead of passing each of them (issue 34 item 5). Plain function, no extra
 * promise per request.
 */
export function beyondApi(middleware: Middleware<AppState>): Middleware<AppState> {
  return (ctx: AppContext, next: Next) => (ctx.path.startsWith(API_PREFIX) ? next() : middleware(ctx, next));
}
