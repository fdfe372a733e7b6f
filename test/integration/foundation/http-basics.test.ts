import nodeHttp from 'node:http';
import { routeTable } from '../../../api/route-table';
import { makeOrg } from '../../helpers/fixtures';
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

  it('keeps idle connections longer than clients and load balancers do (65 s), so a client always closes first', async () => {
    const keepAlive = await new Promise<string>((resolve, reject) => {
      const agent = new nodeHttp.Agent({ keepAlive: true });
      nodeHttp
        .get(`${platform.url}/healthz`, { agent }, (res) => {
          res.resume();
          agent.destroy();
          resolve(String(res.headers['keep-alive']));
        })
        .on('error', reject);
    });
    expect(keepAlive).toBe('timeout=65');
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

describe('input PostgreSQL cannot hold is refused at the edge with 400', () => {
  it('refuses a NUL character in any JSON string or key of a body, before anything reads it', async () => {
    const inValue = await http.post('/api/v1/auth/login', { body: { email: 'a\u0000@example.test', password: 'x' } });
    expect(inValue.status).toBe(400);
    expect(inValue.body).toEqual({ error: 'invalid request body: email must not contain NUL characters' });
    const nested = await http.post('/api/v1/auth/login', {
      rawBody: '{"email":"a@example.test","password":"x","more":[{"k\\u0000":1}]}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(nested.body).toEqual({ error: 'invalid request body: more.0.k\\u0000 must not contain NUL characters' });
  });

  it('refuses a list cursor whose keys hold a NUL character', async () => {
    const { members } = await makeOrg(platform, ['owner']);
    const cursor = Buffer.from(JSON.stringify(['k1', 'a\u0000', 'b'])).toString('base64url');
    const res = await http.get(`/api/v1/organizations?cursor=${cursor}`, { token: members.owner!.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid cursor' });
  });

  it('refuses a NUL character in a path parameter', async () => {
    const res = await http.get('/api/v1/invitations/abc%00def');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid request path: token must not contain NUL characters' });
  });

  it('refuses a non-uuid on every route whose parameter is an id, whatever the route did with it', async () => {
    const { members } = await makeOrg(platform, ['owner']);
    const token = members.owner!.token;
    const uuidParams = new Set(
      Object.entries(platform.services.schemas.schema('path-params').properties as Record<string, { format?: string }>)
        .filter(([, schema]) => schema.format === 'uuid')
        .map(([name]) => name),
    );
    const routes = routeTable(platform.services).filter((r) =>
      [...r.path.matchAll(/:(\w+)/g)].some((m) => uuidParams.has(m[1]!)),
    );
    expect(routes.length).toBeGreaterThan(10);
    const answers = await Promise.all(
      routes.map(async (route) => {
        // 36 characters of the old `[0-9a-f-]{36}` route patterns that are no uuid.
        const path = route.path.replace(/:(\w+)/g, (_, name: string) => (uuidParams.has(name) ? '-'.repeat(36) : 'x'));
        const body = route.method === 'get' ? undefined : {};
        const res = await http.request(route.method.toUpperCase(), path, { token, body });
        return { route: `${route.method} ${route.path}`, status: res.status };
      }),
    );
    expect(answers.filter((a) => a.status !== 400)).toEqual([]);
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
