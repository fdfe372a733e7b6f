import fs from 'node:fs';
import path from 'node:path';
import { NotFound } from '../../../src/errors';
import type { AppContext } from '../../context';
import type { RouteDef } from '../../route-def';
import { paramOf } from '../../request';
import { ownValue } from '../../../src/parse/own-property';

/**
 * The API reference at /api/docs: Swagger UI (swagger-ui-dist, served from node_modules, no CDN) over
 * /api/openapi.json. No inline script or style: the page loads its start-up script from /api/docs/assets, so it runs
 * under a CSP of `script-src 'self'`. Only the files below are served.
 */
const DIST = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Readonly<Record<string, { file: string; type: string }>> = {
  'swagger-ui.css': { file: path.join(DIST, 'swagger-ui.css'), type: 'text/css' },
  'swagger-ui-bundle.js': { file: path.join(DIST, 'swagger-ui-bundle.js'), type: 'application/javascript' },
  'favicon-32x32.png': { file: path.join(DIST, 'favicon-32x32.png'), type: 'image/png' },
};
const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#docs',
    deepLinking: true,
    displayOperationId: false,
    defaultModelsExpandDepth: 0,
    docExpansion: 'none',
    filter: true,
    tryItOutEnabled: false,
  });
});
`;
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Delivery Platform API reference</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/api/docs/assets/favicon-32x32.png">
</head>
<body>
<main id="docs"></main>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/docs-init.js"></script>
</body>
</html>
`;
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

function send(ctx: AppContext, type: string, body: string | Buffer): void {
  ctx.set('Content-Security-Policy', CSP);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cache-Control', 'public, max-age=300');
  ctx.type = type;
  ctx.body = body;
}

export function apiDocsRoutes(): RouteDef[] {
  const contents = new Map<string, Buffer>();
  const read = (name: string) => {
    const asset = ownValue(ASSETS, name);
    if (!asset) throw new NotFound('not found');
    const cached = contents.get(name) ?? fs.readFileSync(asset.file);
    contents.set(name, cached);
    return { ...asset, body: cached };
  };
  return [
    {
      method: 'get',
      path: '/api/docs',
      summary: 'The API reference (Swagger UI over /api/openapi.json), with a request and response example per route',
      tag: 'meta',
      access: { kind: 'public' },
      handler: async (ctx) => send(ctx, 'text/html; charset=utf-8', PAGE),
    },
    {
      method: 'get',
      path: '/api/docs/assets/:asset',
      summary: "The reference page's own script, style and Swagger UI files",
      tag: 'meta',
      access: { kind: 'public' },
      handler: async (ctx) => {
        const name = paramOf(ctx, 'asset');
        if (name === 'docs-init.js') return send(ctx, 'application/javascript; charset=utf-8', INIT);
        const asset = read(name);
        send(ctx, asset.type, asset.body);
      },
    },
  ];
}
