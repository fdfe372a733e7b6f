import fs from 'node:fs';
import path from 'node:path';
import { isAssetPath, isUiRoute, RESERVED_PREFIXES, UI_ROUTE_SEGMENTS } from '../../../api/web-ui/ui-routes';
import { repoRoot } from '../../../src/paths';

describe('UI routes the API answers with the app', () => {
  it('are exactly the first segments of the routes web/src/routes.tsx declares', () => {
    const source = fs.readFileSync(path.join(repoRoot(), 'web', 'src', 'routes.tsx'), 'utf8');
    const declared = new Set([...source.matchAll(/path: '\/([a-z-]+)/g)].map((m) => m[1]));
    expect([...declared].sort()).toEqual([...UI_ROUTE_SEGMENTS].sort());
  });

  it('never include a reserved prefix, in any spelling of the path', () => {
    for (const prefix of RESERVED_PREFIXES) {
      for (const p of [prefix, `${prefix}/`, `${prefix}/x`, `${prefix}/login`]) {
        expect([p, isUiRoute(p), isAssetPath(p)]).toEqual([p, false, false]);
      }
    }
  });

  it('cover the mailed and redirected links', () => {
    for (const p of ['/', '/login/mfa', '/app/projects', '/invitations/t', '/verify-email', '/reset-password']) {
      expect([p, isUiRoute(p)]).toEqual([p, true]);
    }
    expect(isUiRoute('/apix')).toBe(false);
    expect(isUiRoute('/favicon.ico')).toBe(false);
  });
});
