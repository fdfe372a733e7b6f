import Router from '@koa/router';
import { memoizeRouteMatch } from '../../../api/route-match-memo';

/** A router whose every regular-expression test is counted, memoized as api/app.ts does. */
function countedRouter() {
  const router = new Router();
  router.get('/api/v2/projects', () => undefined);
  router.get('/api/v2/projects/:slug', () => undefined);
  router.post('/api/v2/projects', () => undefined);
  const tests = { count: 0 };
  for (const layer of router.stack) {
    const match = layer.match.bind(layer);
    layer.match = (path: string) => {
      tests.count++;
      return match(path);
    };
  }
  return { router: memoizeRouteMatch(router, 2), tests };
}

const paths = (layers: { path: string | RegExp }[]) => layers.map((l) => String(l.path));

describe('the route-match memo', () => {
  it('answers a seen method and path without matching again, as the router would', () => {
    const { router, tests } = countedRouter();
    const first = router.match('/api/v2/projects/web', 'GET');
    const count = tests.count;
    const second = router.match('/api/v2/projects/web', 'GET');
    expect(tests.count).toBe(count);
    expect(paths(second.pathAndMethod)).toEqual(['/api/v2/projects/:slug']);
    expect(second).toEqual(first);
    expect(router.match('/api/v2/projects', 'POST').route).toBe(true);
    expect(router.match('/api/v2/projects/web', 'POST').route).toBe(false);
  });

  it('hands out copies, so what a request context does to them never reaches the next request', () => {
    const { router } = countedRouter();
    router.match('/api/v2/projects', 'GET').path.push(...router.stack);
    expect(paths(router.match('/api/v2/projects', 'GET').path)).toEqual(['/api/v2/projects', '/api/v2/projects']);
  });

  it('keeps the most recent pairs up to its size, and never long paths', () => {
    const { router, tests } = countedRouter();
    router.match('/api/v2/projects/a', 'GET');
    router.match('/api/v2/projects/b', 'GET');
    router.match('/api/v2/projects/a', 'GET');
    router.match('/api/v2/projects/c', 'GET'); // drops b, the least recent
    const count = tests.count;
    router.match('/api/v2/projects/a', 'GET');
    expect(tests.count).toBe(count);
    router.match('/api/v2/projects/b', 'GET');
    expect(tests.count).toBeGreaterThan(count);
    const long = `/api/v2/projects/${'x'.repeat(300)}`;
    router.match(long, 'GET');
    const afterLong = tests.count;
    router.match(long, 'GET');
    expect(tests.count).toBeGreaterThan(afterLong);
  });
});
