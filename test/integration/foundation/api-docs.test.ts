import { scaled } from '../../helpers/time-scale';
import path from 'node:path';
import Ajv from 'ajv';
import type { Browser } from 'playwright-core';
import { repoRoot } from '../../../src/paths';
import { loadResponseSchemas } from '../../../src/http/response-schemas';
import { launchChromium } from '../../helpers/browser';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { makeOrg } from '../../helpers/fixtures';
import { makeProject } from '../gitops/gitops-harness';

/**
 * Issue 32: the API reference served at /api/docs, with a request and a response example on every route, taken from
 * the schemas the server validates with and checked against them here; rendered in a real Chromium under its CSP.
 */
let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  http = httpClient(platform.url);
});
afterAll(() => platform.close());

interface Media {
  schema: { $ref?: string };
  example?: unknown;
}
interface Operation {
  tags: string[];
  parameters: { name: string; in: 'path' | 'query'; example?: unknown }[];
  requestBody?: { content: { 'application/json': Media } };
  responses: Record<string, { content?: { 'application/json': Media } }>;
}
interface Document {
  info: { description?: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>> };
}

const schemaId = (media: Media) => (media.schema.$ref ?? '').replace('#/components/schemas/', '');

describe('the OpenAPI document', () => {
  it('says how to get a token: the login route, MFA, project API keys and service-account tokens', async () => {
    const doc = (await http.get<Document>('/api/openapi.json')).body;
    const text = doc.info.description ?? '';
    for (const route of ['/api/v1/auth/login', '/api/v1/auth/mfa/verify', '/api/v2/projects/{slug}/api-keys']) {
      expect([route, text.includes(route)]).toEqual([route, true]);
      // Each named route is real (all three are POSTs).
      expect([route, doc.paths[route]?.post]).toEqual([route, expect.anything()]);
    }
    expect(text).toContain('svc_');
    expect(text).toContain('svcacct_');
  });

  it('has request examples that pass the request schemas and an error example on every route', async () => {
    const doc = (await http.get<Document>('/api/openapi.json')).body;
    const errorSchema = new Ajv().compile(doc.components.schemas.Error!);
    const schemas = platform.services.schemas;
    let bodies = 0;
    let operations = 0;
    for (const [route, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        operations += 1;
        const where = `${method.toUpperCase()} ${route}`;
        const body = op.requestBody?.content['application/json'];
        if (body) {
          bodies += 1;
          expect([where, body.example]).toEqual([where, expect.anything()]);
          expect(() => schemas.check(schemaId(body), body.example)).not.toThrow();
        }
        const pathValues = Object.fromEntries(
          op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, p.example]),
        );
        expect(() => schemas.check('path-params', pathValues, 'path')).not.toThrow();
        const query = op.parameters.filter((p) => p.in === 'query');
        expect(query.every((p) => p.example !== undefined)).toBe(true);
        const error = op.responses.default?.content?.['application/json'];
        expect([where, errorSchema(error?.example)]).toEqual([where, true]);
      }
    }
    expect(operations).toBeGreaterThan(250);
    expect(bodies).toBeGreaterThan(80);
  });

  it('has a success response with its real status on every route, and an example body that passes its schema', async () => {
    const doc = (await http.get<Document>('/api/openapi.json')).body;
    const responses = loadResponseSchemas();
    let examples = 0;
    for (const [route, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const declared = responses.declared(`${method.toUpperCase()} ${route.replace(/\{(\w+)\}/g, ':$1')}`);
        expect(declared).toBeDefined();
        const success = op.responses[String(declared!.status)];
        expect(success).toBeDefined();
        const body = success!.content?.['application/json'];
        if (!declared!.schema) continue;
        examples += 1;
        expect(schemaId(body!)).toBe(declared!.schema);
        expect([route, method, responses.invalid(declared!.schema, body!.example)]).toEqual([route, method, null]);
      }
    }
    expect(examples).toBeGreaterThan(200);
  });
});

/** The routes a first "Try it out" reaches for: previews that change nothing, and the comparison. */
const MAIN_ROUTES = [
  'post /api/v2/projects/{slug}/releases/preview',
  'post /api/v2/projects/{slug}/bulk-update/preview',
  'post /api/v2/tenants/{tenant}/envs/{env}/rollback/preview',
  'get /api/v2/projects/{slug}/compare',
  'get /api/v2/projects/{slug}/releases',
  'get /api/v2/projects/{slug}/environments/{environment}',
];

describe('the generated examples', () => {
  it('are accepted by the server on the main routes, against the walk-through names (project shop, tenant acme)', async () => {
    const doc = (await http.get<Document>('/api/openapi.json')).body;
    const org = await makeOrg(platform, ['owner']);
    const token = org.members.owner!.token;
    await makeProject(platform, token, 'shop', ['acme']);
    for (const name of MAIN_ROUTES) {
      const [method, template] = name.split(' ') as [string, string];
      const op = doc.paths[template]?.[method];
      expect([name, op]).toEqual([name, expect.anything()]);
      let url = template;
      const query = new URLSearchParams();
      for (const p of op!.parameters) {
        if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(p.example)));
        else query.set(p.name, String(p.example));
      }
      const body = op!.requestBody?.content['application/json'].example;
      const res = await http.request(method.toUpperCase(), `${url}${query.size ? `?${query}` : ''}`, { token, body });
      // Before: the release preview's example named environment "web" (no such environment) and slug "string".
      // No schema refusal, and every name in it exists (a random release id may still be refused for what it is).
      const where = `${name}: ${res.status} ${res.text.slice(0, 200)}`;
      const schemaRefusal = res.status === 400 && /"error":"(invalid request|malformed)/.test(res.text);
      expect([where, schemaRefusal || res.status === 404]).toEqual([where, false]);
      if (name.includes('/preview') && !name.includes('rollback')) expect([where, res.status]).toEqual([where, 200]);
    }
  });
});

describe('/api/docs', () => {
  it('serves the page and its assets from the platform under a CSP without inline script', async () => {
    const page = await fetch(`${platform.url}/api/docs`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await page.text();
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, content] of scripts) {
      expect(attributes).toMatch(/src="\/api\/docs\/assets\//);
      expect(content).toBe('');
    }
    for (const asset of ['swagger-ui.css', 'swagger-ui-bundle.js', 'docs-init.js']) {
      expect((await fetch(`${platform.url}/api/docs/assets/${asset}`)).status).toBe(200);
    }
    expect((await fetch(`${platform.url}/api/docs/assets/package.json`)).status).toBe(404);
    expect((await fetch(`${platform.url}/api/docs/assets/..%2Fpackage.json`)).status).toBe(400);
  });

  // The global setup installs Debian's chromium when it is missing (scripts/ensure-test-tools.sh).
  it('renders every route in Chromium with no CSP violation (UPDATE_SCREENSHOT=1 refreshes docs/api-docs.png)', async () => {
    let browser: Browser | undefined;
    try {
      browser = await launchChromium();
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.setDefaultTimeout(scaled(30_000));
      const problems: string[] = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(`${platform.url}/api/docs`);
      await page.waitForSelector('.opblock-tag-section', { timeout: scaled(30_000) });
      const doc = (await http.get<Document>('/api/openapi.json')).body;
      const tags = new Set(Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.tags[0])));
      expect(await page.locator('.opblock-tag-section').count()).toBe(tags.size);
      // A tag opens to its routes, each with its example request body when it has one.
      await page.locator('.opblock-tag', { hasText: 'releases' }).first().click();
      const create = page.locator('.opblock-post', { hasText: '/api/v2/projects/{slug}/releases' }).first();
      await create.locator('.opblock-summary').click();
      const example = create.locator('.body-param__example, .highlight-code').first();
      await example.waitFor();
      expect(await example.innerText()).toContain('"tenantId"');
      await create.scrollIntoViewIfNeeded();
      expect(await page.locator('.info .title').innerText()).toContain('Delivery Platform API');
      expect(problems).toEqual([]);
      if (process.env.UPDATE_SCREENSHOT === '1') {
        await page.screenshot({ path: path.join(repoRoot(), 'docs', 'api-docs.png') });
      }
    } finally {
      await browser?.close();
    }
  }, 90_000);
});
