import type { Next } from 'koa';
import { decodeUrlComponent } from '../../src/http/text-guard';
import type { AppContext } from '../context';

/**
 * The text guard of every request line, before any route (API, OCI `/v2/*`, Git over HTTP): each path segment and each
 * query name and value must decode to UTF-8 text, and outside `/api/` hold no NUL either, else 400 (docs/security.md
 * A-60). API routes check their decoded path and query parameters by name in api/mount-routes.ts.
 */
export function urlGuard() {
  return async (ctx: AppContext, next: Next): Promise<void> => {
    const check = ctx.path.startsWith('/api/')
      ? (raw: string, what: 'path' | 'query') => decodeUrlComponent(raw.replace(/%00/g, ''), what)
      : decodeUrlComponent;
    for (const segment of ctx.path.split('/')) check(segment, 'path');
    if (ctx.querystring) {
      for (const pair of ctx.querystring.split('&')) for (const part of pair.split('=')) check(part, 'query');
    }
    return next();
  };
}
