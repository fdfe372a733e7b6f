import type { Next } from 'koa';
import { decodeUrlComponent } from '../../src/http/text-guard';
import type { AppContext } from '../context';

/**
 * The text guard of every request line, before any route (API, OCI `/v2/*`, Git over HTTP): each path segment and each
 * query name and value must decode to well-formed UTF-8 text without NUL, else 400 (docs/security.md A-60).
 */
export function urlGuard() {
  return async (ctx: AppContext, next: Next): Promise<void> => {
    for (const segment of ctx.path.split('/')) decodeUrlComponent(segment, 'path');
    if (ctx.querystring) {
      for (const pair of ctx.querystring.split('&')) {
        for (const part of pair.split('=')) decodeUrlComponent(part, 'query');
      }
    }
    return next();
  };
}
