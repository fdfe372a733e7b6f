import type { Next } from 'koa';
import { Forbidden } from '../../src/errors';
import { KEY_PREFIX } from '../../src/machine-access/secret-value';
import { OFF_ALLOWLIST, keyPathEntry } from '../../src/machine-access/key-allowlist';
import type { AppContext } from '../context';

/**
 * Requests carrying a project API key reach routing only on an allowlisted path in its canonical spelling. Routing
 * alone would answer 404 to `/x/../admin` or `//admin`; A-42 asks for 403, and deny-by-default means the
 * key never reaches a route the allowlist did not name. The route-level check (api/auth-chain.ts) repeats the match
 * against the route that was found and adds the scopes.
 */
export function keyAllowlistGate() {
  return async (ctx: AppContext, next: Next): Promise<void> => {
    if (ctx.get('Authorization').startsWith(`Bearer ${KEY_PREFIX}`) && !keyPathEntry(ctx.method, ctx.path)) {
      throw new Forbidden(OFF_ALLOWLIST);
    }
    return next();
  };
}
