import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UI_CONTENT_SECURITY_POLICY } from '../../../api/web-ui/web-ui';
import { runScript } from '../../helpers/child-process';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

/**
 * The API process serves the web app (built into dist/web by the harness) at `/` and the app's routes, with a strict
 * policy, and never shadows the API, Git, the registry or the probes.
 */
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  http = httpClient(platform.url);
}, 60_000);
afterAll(() => platform.close());

const UI_PATHS = [
  '/',
  '/login',
  '/login/mfa',
  '/app/projects',
  '/projects/shop/compare',
  '/projects/shop/bulk-update',
  '/invitations/abc',
  '/verify-email?token=x',
  '/reset-password?token=x',
  '/approvals',
  '/audit',
  '/notifications',
  '/validation',
  '/clusters/abc',
  '/governance',
  '/settings',
  '/registry',
];

describe('the web UI', () => {
  it.each(UI_PATHS)('answers %s with the app under a strict policy', async (path) => {
    const res = await http.get(path, { headers: { Accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<div id="root"></div>');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toBe(UI_CONTENT_SECURITY_POLICY);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('has no inline script in the page it serves', async () => {
    const res = await http.get('/');
    const scripts = [...res.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/src="\/assets\/[^"]+\.js"/);
      expect(body).toBe('');
    }
  });

  it('serves the hashed assets for good and answers a repeat with 304', async () => {
    const page = await http.get('/');
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(page.text)?.[1] ?? '';
    const res = await http.get(asset);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const again = await http.get(asset, { headers: { 'If-None-Match': res.headers.get('etag') ?? '' } });
    expect(again.status).toBe(304);
  });

  it.each([
    ['/api/v2/nothing-here', 404],
    ['/api/v1/auth/me', 401],
    ['/healthz', 200],
    ['/git/r/acme/shop.git/info/refs?service=git-upload-pack', 401],
    ['/v2/', 401],
    ['/unknown-page', 404],
    ['/assets/missing.js', 404],
    ['/.vite/manifest.json', 404],
    ['/assets/../index.html', 404],
  ])('leaves %s to the API (%i, JSON)', async (path, status) => {
    const res = await http.get(path, { headers: { Accept: 'text/html' } });
    expect(res.status).toBe(status);
    expect(res.text).not.toContain('<div id="root">');
    expect(res.headers.get('content-security-policy')).toBeNull();
  });

  it('answers only GET and HEAD: a POST to a UI route is the API 404', async () => {
    const res = await http.post('/login', { body: {} });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not found' });
  });

  it('is typed from the document the server serves: the committed client types are generated from it', async () => {
    const served = await http.get('/api/openapi.json');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'served-openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      fs.writeFileSync(file, served.text);
      const { code, output } = await runScript('scripts/build-openapi-types.ts', ['--check', '--document', file], {});
      expect([code, output]).toEqual([0, '']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
