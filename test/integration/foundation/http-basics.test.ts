import { routeTable } from '../../../api/route-table';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false, env: { BODY_LIMIT_BYTES: '4096' } });
  http = httpClient(platform.url);
});
afterAll(() => platform.close());

describe('probes', () => {
  it('answers liveness and readiness', async () => {
    expect((await http.get('/healthz')).status).toBe(200);
    const ready = await http.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });

  it('serves Prometheus metrics labelled by route template', async () => {
    await http.get('/healthz');
    const res = await http.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.text).toMatch(
      /http_request_duration_seconds_bucket\{[^}]*route="\/healthz"[^}]*method="GET"[^}]*status="200"/,
    );
    expect(res.text).toContain('process_cpu_user_seconds_total');
  });
});

describe('errors and request ids', () => {
  it('answers unknown routes with a JSON 404', async () => {
    const res = await http.get('/api/v2/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not found' });
  });

  it('echoes a well-formed X-Request-Id and replaces a malformed one', async () => {
    const kept = await http.get('/healthz', { headers: { 'X-Request-Id': 'abc-123' } });
    expect(kept.headers.get('x-request-id')).toBe('abc-123');
    const replaced = await http.get('/healthz', { headers: { 'X-Request-Id': 'bad id\twith spaces' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses bodies over the limit with 413 before parsing', async () => {
    const res = await http.post('/api/v2/audit-logs', {
      rawBody: JSON.stringify({ pad: 'x'.repeat(10_000) }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'request body too large' });
  });

  it('answers malformed JSON with 400 and no stack', async () => {
    const res = await http.post('/api/v2/audit-logs', {
      rawBody: '{"a":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'malformed request body' });
  });

  it('requires a bearer token on protected routes', async () => {
    const res = await http.get('/api/v2/audit-logs');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'missing or invalid token' });
  });
});

describe('OpenAPI', () => {
  it('documents every route of the route table with its action', async () => {
    const res = await http.get<{
      openapi: string;
      paths: Record<string, Record<string, { 'x-action': string | null }>>;
    }>('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.paths['/api/v2/audit-logs']?.get?.['x-action']).toBe('org.audit.read');
    expect(res.body.paths['/healthz']?.get?.['x-action']).toBeNull();
    // Every route of the table is documented, under its OpenAPI path and method.
    const documented = Object.entries(res.body.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`));
    const routes = routeTable(platform.services).map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    expect(new Set(routes).size).toBe(routes.length);
    expect(documented.sort()).toEqual(routes.sort());
  });
});
