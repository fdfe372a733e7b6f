import type Router from '@koa/router';
import type { MatchResult } from '@koa/router';

/** How many distinct method and path pairs are remembered (paths carry slugs and ids; the least recent go first). */
export const ROUTE_MATCH_MEMO_SIZE = 10_000;
/** Longer paths are matched every time, so the memo stays small whatever paths a client makes up. */
const MAX_PATH = 256;

/**
 * Route matching once per method and path rather than per request (issue 34 item 5): the router tries every route's
 * regular expression in turn, hundreds of them, and its routes never change once mounted. The answer is a fresh copy
 * each time, since the router hands its arrays to the request context.
 */
export function memoizeRouteMatch<S, C>(router: Router<S, C>, max = ROUTE_MATCH_MEMO_SIZE): Router<S, C> {
  const match = router.match.bind(router);
  const memo = new Map<string, MatchResult<S, C>>();
  router.match = (path: string, method: string): MatchResult<S, C> => {
    if (path.length > MAX_PATH) return match(path, method);
    const key = `${method} ${path}`;
    let found = memo.get(key);
    if (found) memo.delete(key);
    else found = match(path, method);
    memo.set(key, found);
    if (memo.size > max) memo.delete(memo.keys().next().value as string);
    return { path: [...found.path], pathAndMethod: [...found.pathAndMethod], route: found.route };
  };
  return router;
}
