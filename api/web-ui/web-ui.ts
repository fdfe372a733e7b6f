import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Middleware } from 'koa';
import type { AppState } from '../context';
import { repoRoot } from '../../src/paths';
import { isAssetPath, isUiRoute } from './ui-routes';
import { loadWebAssets, type WebAsset } from './web-assets';

/**
 * The one inline style the app makes: react-aria's `usePress` prepends a `<style>` holding this rule (its pressable
 * elements' touch-action). Allowed by its hash alone, so no other inline style can apply.
 */
export const REACT_ARIA_PRESS_STYLE =
  '@layer {\n  [data-react-aria-pressable] {\n    touch-action: pan-x pan-y pinch-zoom;\n  }\n}';
const PRESS_STYLE_HASH = `'sha256-${createHash('sha256').update(REACT_ARIA_PRESS_STYLE).digest('base64')}'`;

/**
 * Strict policy for every UI response: scripts and styles from this origin only (the build emits no inline script;
 * the one inline style is allowed by its hash), no framing, no plugins, API calls to this origin only. Images may be
 * data: URLs (the TOTP enrolment QR code).
 */
export const UI_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  `style-src 'self' ${PRESS_STYLE_HASH}`,
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The built app's folder: dist/web under the repository root (the build writes it there). */
export function defaultWebDir(): string {
  return path.join(repoRoot(), 'dist', 'web');
}

/**
 * Serves the single-page app: hashed assets under /assets (cached for good), and index.html for `/` and the app's
 * routes (docs/ui.md). Everything else, and every method but GET and HEAD, goes on to the API untouched.
 */
export function webUi(dir: string = defaultWebDir()): Middleware<AppState> {
  const assets = loadWebAssets(dir);
  return async (ctx, next) => {
    if (!assets || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    let asset: WebAsset | undefined;
    if (isAssetPath(ctx.path)) asset = assets.get(ctx.path);
    else if (isUiRoute(ctx.path)) asset = assets.get('/index.html');
    if (!asset) return next();
    const immutable = ctx.path.startsWith('/assets/');
    ctx.set('Content-Security-Policy', UI_CONTENT_SECURITY_POLICY);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    ctx.set('ETag', asset.etag);
    ctx.type = asset.type;
    if (ctx.get('If-None-Match') === asset.etag) {
      ctx.status = 304;
      return;
    }
    ctx.body = asset.body;
  };
}
