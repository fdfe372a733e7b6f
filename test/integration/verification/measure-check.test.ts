import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createVerificationActivities } from '../../../activities/verification';
import type { HttpCheck, PrometheusCheck, WaveContext } from '../../../src/verification/check-spec';
import { makeOrg, type Member } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import {
  startExporter,
  startPrometheus,
  tenantTraffic,
  type Exporter,
  type RunningPrometheus,
} from '../../helpers/prometheus';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

/**
 * Rollout verification against a real Prometheus (issue 48): the test's exporter serves request counters per tenant,
 * Prometheus scrapes it every second, and `measureCheck` queries it through a metric source stored by the API. The
 * platform may reach loopback addresses as notification tests do (NOTIFY_ALLOW_PRIVATE_TARGETS, NOTIFY_ALLOW_HTTP,
 * the servers' ports allowed); the same activity under the default rules refuses them.
 */
let exporter: Exporter;
let prometheus: RunningPrometheus;
let platform: TestPlatform;
let owner: Member;
let member: Member;
let orgId: string;
let stopTraffic: () => void = () => undefined;
let status: http.Server;
/** Authorization headers the proxy in front of Prometheus saw. */
const authorizations: (string | undefined)[] = [];
let proxyPort: number;
/** Errors per tick by tenant; every tenant answers 10 successes per tick. */
const errorsPerTick: Record<string, number> = { 'acme.eu': 0, globex: 0, acmeXeu: 5 };

const api = () => httpClient(platform.url);
const listen = async (server: http.Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

beforeAll(async () => {
  exporter = await startExporter();
  stopTraffic = tenantTraffic(exporter, errorsPerTick);
  prometheus = await startPrometheus({ targets: [exporter.target], scrapeSeconds: 1 });
  // A pass-through proxy in front of Prometheus: it records the bearer token a query carried.
  proxyPort = await listen(
    http.createServer((req, res) => {
      authorizations.push(req.headers.authorization);
      fetch(`${prometheus.url}${req.url}`).then(
        async (answer) => res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text()),
        () => res.writeHead(502).end(),
      );
    }),
  );
  status = http.createServer((req, res) => {
    const ready = req.url?.startsWith('/health/prod?tenants=acme.eu,globex') ?? false;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: { ready } }));
  });
  const statusPort = await listen(status);
  platform = await startTestPlatform({
    worker: false,
    env: {
      NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
      NOTIFY_ALLOW_HTTP: 'true',
      NOTIFY_ALLOWED_PORTS: `${prometheus.port},${proxyPort},${statusPort}`,
      NOTIFY_TOTAL_TIMEOUT: '3s',
    },
  });
  const made = await makeOrg(platform, ['owner', 'member'], 'pro');
  [owner, member, orgId] = [made.members.owner!, made.members.member!, made.org.id];
  statusUrl = `http://127.0.0.1:${statusPort}/health/{{environment}}?tenants={{tenants}}`;
}, 120_000);

afterAll(async () => {
  stopTraffic();
  await platform?.close();
  await prometheus?.close();
  await exporter?.close();
  status?.close();
});

let statusUrl: string;

const wave = (): WaveContext => ({
  orgId,
  projectSlug: 'shop',
  environment: 'prod',
  tenants: ['acme.eu', 'globex'],
  namespaces: ['shop-acme-eu', 'shop-globex'],
  version: 'v2',
});

const errorRate: PrometheusCheck = {
  kind: 'prometheus',
  name: 'error-rate',
  metricSource: 'main',
  // `acmeXeu` is outside the wave: it would count if the tenant's `.` were not escaped.
  query:
    'sum(rate(http_requests_total{tenant=~"{{tenants}}",code=~"5.."}[5s])) / ' +
    'sum(rate(http_requests_total{tenant=~"{{tenants}}"}[5s]))',
  successCondition: 'result < 0.01',
  intervalSeconds: 1,
  count: 1,
  failureLimit: 0,
};

const measure = (outbound = platform.config.notifications.outbound) =>
  createVerificationActivities({
    metricSources: platform.services.metricSources,
    outbound,
    limits: platform.config.notifications.limits,
  }).measureCheck;

describe('metric sources', () => {
  it('are kept per organization by admins, the token sealed and never answered', async () => {
    const body = { name: 'main', kind: 'prometheus', url: `http://127.0.0.1:${proxyPort}`, token: 'prom-secret' };
    expect((await api().post('/api/v2/metric-sources', { token: member.token, body })).status).toBe(403);
    const created = await api().post<Record<string, unknown>>('/api/v2/metric-sources', { token: owner.token, body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'main', kind: 'prometheus', hasToken: true });
    expect(created.text).not.toContain('prom-secret');
    expect((await api().post('/api/v2/metric-sources', { token: owner.token, body })).status).toBe(409);
    const stored = (await platform.services.db('metric_sources').where({ id: created.body.id }).first()) as {
      token_sealed: string;
    };
    expect(stored.token_sealed).not.toContain('prom-secret');

    const list = await api().get<{ items: { name: string }[] }>('/api/v2/metric-sources', { token: member.token });
    expect(list.body.items.map((s) => s.name)).toEqual(['main']);

    const other = await makeOrg(platform, ['owner'], 'pro');
    const foreign = await api().get(`/api/v2/metric-sources/${String(created.body.id)}`, {
      token: other.members.owner!.token,
    });
    expect(foreign.status).toBe(404);

    const audit = await api().get<{ items: { action: string; details: Record<string, unknown> }[] }>(
      '/api/v2/audit-logs?category=configuration&limit=100',
      { token: owner.token },
    );
    const entry = audit.body.items.find((e) => e.action === 'metric_source.create');
    expect(entry?.details).toMatchObject({ slug: 'main', token: 'set' });
    expect(JSON.stringify(audit.body)).not.toContain('prom-secret');
  });

  it('refuse a URL the outbound rules forbid, at creation and at change', async () => {
    for (const url of ['ftp://127.0.0.1/', 'http://user:pw@127.0.0.1:9/', 'http://127.0.0.1:9/', 'not a url']) {
      const res = await api().post('/api/v2/metric-sources', {
        token: owner.token,
        body: { name: 'bad', kind: 'prometheus', url },
      });
      expect(res.status).toBe(400);
    }
    const res = await api().post<{ error: string }>('/api/v2/metric-sources', {
      token: owner.token,
      body: { name: 'bad', kind: 'prometheus', url: `http://127.0.0.1:${proxyPort}/?q=1` },
    });
    expect(res.body.error).toBe('target URL must not have a query or fragment');

    const spare = await api().post<{ id: string }>('/api/v2/metric-sources', {
      token: owner.token,
      body: { name: 'spare', kind: 'prometheus', url: `http://127.0.0.1:${proxyPort}`, token: 't' },
    });
    const one = `/api/v2/metric-sources/${spare.body.id}`;
    const moved = await api().patch<{ error: string }>(one, {
      token: owner.token,
      body: { url: 'http://127.0.0.1:9/' },
    });
    expect(moved).toMatchObject({ status: 400, body: { error: 'target port 9 is not allowed' } });
    const cleared = await api().patch(one, { token: owner.token, body: { token: null, name: 'spare-2' } });
    expect(cleared.body).toMatchObject({ name: 'spare-2', hasToken: false });
    expect((await api().delete(one, { token: member.token })).status).toBe(403);
    expect((await api().delete(one, { token: owner.token })).status).toBe(204);
    expect((await api().get(one, { token: owner.token })).status).toBe(404);
  });
});

describe('measureCheck on a real Prometheus', () => {
  it('passes while the wave’s error rate is low, fails once the test raises it', async () => {
    const low = await eventually(
      async () => {
        const m = await measure()({ check: errorRate, context: wave() });
        return m.error === undefined ? m : null;
      },
      30_000,
      'a first measurement',
    );
    expect(low).toMatchObject({ check: 'error-rate', value: 0, passed: true });
    expect(authorizations).toContain('Bearer prom-secret');

    errorsPerTick['acme.eu'] = 2;
    const high = await eventually(
      async () => {
        const m = await measure()({ check: errorRate, context: wave() });
        return m.passed ? null : m;
      },
      30_000,
      'the raised error rate',
    );
    expect(high.error).toBeUndefined();
    expect(high.value).toBeGreaterThan(0.01);
    errorsPerTick['acme.eu'] = 0;
  });

  it('fails a measurement with a clear reason when the query gives not exactly one sample', async () => {
    const perTenant = await measure()({
      check: { ...errorRate, query: 'sum by (tenant) (http_requests_total{tenant=~"{{tenants}}"})' },
      context: wave(),
    });
    expect(perTenant).toMatchObject({ passed: false, value: null });
    expect(perTenant.error).toMatch(/query returned 2 series; aggregate it to one/);
    const none = await measure()({
      check: { ...errorRate, query: 'sum(http_requests_total{tenant="nobody"})' },
      context: wave(),
    });
    expect(none.error).toMatch(/no sample/);
    const bad = await measure()({ check: { ...errorRate, query: 'sum(' }, context: wave() });
    expect(bad.error).toMatch(/^query failed: .*parse error/);
    const condition = await measure()({
      check: { ...errorRate, successCondition: 'result < 1 || true' },
      context: wave(),
    });
    expect(condition.error).toMatch(/success condition must be/);
    const unknown = await measure()({ check: { ...errorRate, metricSource: 'nope' }, context: wave() });
    expect(unknown.error).toBe('metric source "nope" not found');
    // Another organization's source of the same name is not this one's.
    const elsewhere = await makeOrg(platform, ['owner'], 'pro');
    const foreign = await measure()({ check: errorRate, context: { ...wave(), orgId: elsewhere.org.id } });
    expect(foreign.error).toBe('metric source "main" not found');
  });

  it('runs HTTP checks: status and a JSON field, the URL templated', async () => {
    const check: HttpCheck = {
      kind: 'http',
      name: 'ready',
      url: statusUrl,
      expectStatus: 200,
      jsonField: 'status.ready',
      expectValue: true,
      intervalSeconds: 1,
      count: 1,
      failureLimit: 0,
    };
    expect(await measure()({ check, context: wave() })).toMatchObject({ passed: true, value: true });
    const other = await measure()({ check, context: { ...wave(), tenants: ['initech'] } });
    expect(other).toMatchObject({ passed: false, value: false, error: 'field status.ready is false, expected true' });
    const status = await measure()({ check: { ...check, expectStatus: 204 }, context: wave() });
    expect(status).toMatchObject({ passed: false, value: 200, error: 'answered HTTP 200, expected 204' });
  });

  it('refuses a loopback metric source or HTTP target when the outbound rules forbid private addresses', async () => {
    const strict = { ...platform.config.notifications.outbound, allowPrivate: false };
    const before = authorizations.length;
    const refused = await measure(strict)({ check: errorRate, context: wave() });
    expect(refused.passed).toBe(false);
    expect(refused.error).toBe(
      'metric source "main" refused by the outbound rules: target resolves to a private, loopback, link-local or reserved address',
    );
    expect(authorizations.length).toBe(before);
    const http = await measure(strict)({
      check: { kind: 'http', name: 'h', url: statusUrl, intervalSeconds: 1, count: 1, failureLimit: 0 },
      context: wave(),
    });
    expect(http.error).toMatch(/^refused by the outbound rules: target resolves to a private/);
  });
});
