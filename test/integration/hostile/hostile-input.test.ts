import { routeTable } from '../../../api/route-table';
import type { RouteDef } from '../../../api/route-def';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { makeProject } from '../gitops/gitops-harness';
import { hostileBodies, requestSchema } from './hostile-bodies';

const numericProps = (id: string) =>
  Object.entries(requestSchema(id).properties ?? {})
    .filter(([, p]) => p.type === 'integer' || p.type === 'number')
    .map(([n]) => n);

/**
 * Issue 25: every route of the route table, and the raw-body routes outside it (OCI `/v2/*`, Git over HTTP, webhooks),
 * gets hostile variants of its path, query and body (NUL, lone surrogates, invalid UTF-8, huge numbers, wrong types,
 * deep nesting, oversize). Every answer is a 4xx, never a 5xx or a success, and nothing changes: the audit log and the
 * project's repository HEAD are the same after as before. A route added to the table is covered at once.
 */
const BODY_LIMIT = 65_536;
const RANDOM_UUID = '00000000-0000-4000-8000-000000000000';
const PARAMS: Record<string, string> = { slug: 'shop', tenant: 'acme', environment: 'dev', env: 'dev' };
const HOSTILE_SEGMENTS: [string, string][] = [
  ['NUL in a path parameter', 'a%00b'],
  ['lone surrogate in a path parameter', '%ED%A0%80'],
  ['bad percent-encoding in a path parameter', '%ff'],
];
/** Issue 42: a lookup keyed by a path segment must not reach Object.prototype (`/api/docs/assets/constructor` was 500). */
const PROTOTYPE_SEGMENTS: [string, string][] = ['constructor', '__proto__', 'toString', 'hasOwnProperty'].map((n) => [
  `prototype name ${n} as a path parameter`,
  n,
]);
const HOSTILE_QUERIES: [string, string][] = [
  ['NUL in the query', 'limit=%00&q=a%00'],
  ['bad percent-encoding in the query', 'q=%ff%fe'],
];

let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let token: string;
let orgSlug: string;

interface Probe {
  what: string;
  /** A GET may answer 2xx (the name is an ordinary value there); it must never answer 5xx. */
  mayRead?: boolean;
  method: string;
  path: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

const concrete = (route: RouteDef, hostile?: string) => {
  let first = true;
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    if (hostile && first) {
      first = false;
      return hostile;
    }
    return PARAMS[name] ?? (/id$/i.test(name) ? RANDOM_UUID : 'x');
  });
};

function probesOf(route: RouteDef): Probe[] {
  const method = route.method.toUpperCase();
  const name = `${method} ${route.path}`;
  const probes: Probe[] = [];
  if (route.path.includes(':')) {
    for (const [what, segment] of HOSTILE_SEGMENTS)
      probes.push({ what: `${name}: ${what}`, method, path: concrete(route, segment) });
    // A prototype name may be a valid value (a 404 or a 4xx is right); a 5xx or a success on a write is not.
    for (const [what, segment] of PROTOTYPE_SEGMENTS)
      probes.push({ what: `${name}: ${what}`, method, path: concrete(route, segment), mayRead: true });
  }
  for (const [what, query] of HOSTILE_QUERIES) {
    if (route.query || method === 'GET')
      probes.push({ what: `${name}: ${what}`, method, path: `${concrete(route)}?${query}` });
  }
  const numeric = route.query ? numericProps(route.query) : [];
  if (numeric.length > 0) {
    const query = numeric.map((p) => `${p}=1e400`).join('&');
    probes.push({ what: `${name}: huge numbers in the query`, method, path: `${concrete(route)}?${query}` });
  }
  if (method !== 'GET') {
    for (const [what, body] of hostileBodies(route.body, BODY_LIMIT)) {
      probes.push({
        what: `${name}: ${what}`,
        method,
        path: concrete(route),
        body,
        headers: { 'Content-Type': 'application/json' },
      });
    }
  }
  return probes;
}

/** The raw-body routes outside the route table, with the same kinds of hostility. */
function rawProbes(): Probe[] {
  const manifest = (extra: string) =>
    `{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json",${extra}"config":{"mediaType":"application/vnd.oci.empty.v1+json","digest":"sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a","size":2},"layers":[]}`;
  const oci = { 'Content-Type': 'application/vnd.oci.image.manifest.v1+json' };
  const repo = `/v2/${orgSlug}/hostile`;
  return [
    {
      what: 'OCI manifest with NUL in artifactType',
      method: 'PUT',
      path: `${repo}/manifests/t1`,
      body: manifest('"artifactType":"a\\u0000b",'),
      headers: oci,
    },
    {
      what: 'OCI manifest with NUL in an annotation',
      method: 'PUT',
      path: `${repo}/manifests/t2`,
      body: manifest('"annotations":{"k":"\\u0000"},'),
      headers: oci,
    },
    {
      what: 'OCI manifest with a lone surrogate',
      method: 'PUT',
      path: `${repo}/manifests/t3`,
      body: manifest('"annotations":{"k":"\\ud800"},'),
      headers: oci,
    },
    {
      what: 'OCI manifest nested deeply',
      method: 'PUT',
      path: `${repo}/manifests/t4`,
      body: `{"schemaVersion":2,"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
      headers: oci,
    },
    {
      what: 'OCI manifest not UTF-8',
      method: 'PUT',
      path: `${repo}/manifests/t5`,
      body: Buffer.from([0x7b, 0xc0, 0xaf, 0x7d]),
      headers: oci,
    },
    { what: 'OCI path with NUL', method: 'GET', path: `/v2/${orgSlug}/a%00b/tags/list` },
    { what: 'OCI query with bad encoding', method: 'GET', path: `${repo}/tags/list?n=%ff` },
    {
      what: 'Git over HTTP with NUL in the service',
      method: 'GET',
      path: `/git/r/${orgSlug}/shop.git/info/refs?service=git-upload-pack%00`,
    },
    {
      what: 'Git over HTTP with a lone surrogate in the path',
      method: 'GET',
      path: `/git/r/${orgSlug}/shop.git/%ED%A0%80`,
    },
    {
      what: 'webhook body with NUL before the signature check',
      method: 'POST',
      path: '/api/v1/webhooks/image-update',
      body: '{"image":"a\u0000"}',
      headers: { 'Content-Type': 'application/json' },
    },
    {
      what: 'webhook body with a NUL escape',
      method: 'POST',
      path: '/api/v1/webhooks/image-update',
      body: '{"image":"a\\u0000"}',
      headers: { 'Content-Type': 'application/json' },
    },
  ].map((p) => ({ ...p, headers: { ...p.headers } }));
}

async function state() {
  const audit = Number((await platform.services.db('audit_log').count({ n: '*' }))[0]!.n);
  const head = (await http.get<{ items: { sha: string }[] }>('/api/v2/projects/shop/commits?limit=1', { token })).body
    .items[0]?.sha;
  return { audit, head };
}

beforeAll(async () => {
  platform = await startTestPlatform({ env: { BODY_LIMIT_BYTES: String(BODY_LIMIT) } });
  http = httpClient(platform.url);
  const org = await makeOrg(platform, ['owner'], 'enterprise');
  token = org.members.owner!.token;
  orgSlug = org.org.slug;
  await makeProject(platform, token, 'shop', ['acme']);
}, 180_000);
afterAll(() => platform.close());

describe('hostile input on every route', () => {
  it('answers every hostile variant with a 4xx and changes nothing', async () => {
    const routes = routeTable(platform.services);
    const probes = [...routes.flatMap(probesOf), ...rawProbes()];
    expect(probes.length).toBeGreaterThan(routes.length * 3);
    const before = await state();
    const wrong: string[] = [];
    const queue = [...probes];
    const auth = { Authorization: `Bearer ${token}` };
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let probe = queue.shift(); probe; probe = queue.shift()) {
          const res = await fetch(`${platform.url}${probe.path}`, {
            method: probe.method,
            headers: { ...auth, ...probe.headers },
            body: probe.body,
            redirect: 'manual',
          });
          const text = await res.text();
          const readOk = probe.mayRead && probe.method === 'GET' && res.status < 300;
          if ((res.status < 400 && !readOk) || res.status >= 500)
            wrong.push(`${probe.what} -> ${res.status} ${text.slice(0, 120)}`);
        }
      }),
    );
    expect(wrong).toEqual([]);
    expect(await state()).toEqual(before);
  }, 600_000);

  // Issue 25 (High): a lone surrogate in `message` answered 500 after ~28 s with the commit on main and no audit entry.
  it('refuses a file write whose message holds a lone surrogate with 400 at once, committing nothing', async () => {
    const before = await state();
    const body = '{"path":"notes/a.txt","content":"hello","message":"deploy \\ud800 now"}';
    const started = Date.now();
    const res = await http.put<{ error: string }>('/api/v2/projects/shop/files/content', {
      token,
      rawBody: body,
      headers: { 'Content-Type': 'application/json' },
    });
    expect([res.status, res.body.error]).toEqual([
      400,
      'invalid request body: message must not contain unpaired UTF-16 surrogates',
    ]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await state()).toEqual(before);
    const ok = await http.put('/api/v2/projects/shop/files/content', {
      token,
      body: { path: 'notes/a.txt', content: 'hello', message: 'deploy \u{1F680} now' },
    });
    expect(ok.status).toBe(200);
    expect((await state()).head).not.toBe(before.head);
  });

  // Issue 25 (Low): these notification targets answered 500 or were accepted.
  it('refuses bad notification targets and control characters in bot tokens with 400', async () => {
    const before = await state();
    const channel = (body: Record<string, unknown>) =>
      http.post<{ error: string }>('/api/v2/notifications/channels', {
        token,
        body: { name: 'hostile', events: ['*'], ...body },
      });
    for (const url of ['https://[::127.0.0.1]/hook', 'https://[::1%25lo]/hook', 'https://example.com:65536/hook']) {
      const res = await channel({ type: 'chat2', url });
      expect([url, res.status]).toEqual([url, 400]);
    }
    const bot = await channel({ type: 'chat', mode: 'bot', secret: 'abc\r\nX-Injected: 1', channel: 'ops' });
    expect([bot.status, bot.body.error]).toEqual([400, 'secret must not contain control characters']);
    expect(await state()).toEqual(before);
  });
});
