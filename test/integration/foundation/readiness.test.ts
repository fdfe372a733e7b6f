import { loadConfig } from '../../../src/config';
import { unavailableDependency } from '../../../src/http/unavailable-dependency';
import { createLogger } from '../../../src/logging/logger';
import { createApiServices, type ApiServices } from '../../../src/runtime/api-services';
import { closeServices } from '../../../src/runtime/services';
import { createApp } from '../../../api/app';
import { listen, type RunningServer } from '../../../api/server';
import { harnessState } from '../../helpers/harness-state';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { startTcpProxy } from '../../helpers/tcp-proxy';
import { createTestDatabase, type TestDatabase } from '../../helpers/test-db';
import { testEnv } from '../../helpers/test-platform';

let database: TestDatabase;
let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
let temporalProxy: Awaited<ReturnType<typeof startTcpProxy>>;
let services: ApiServices;
let server: RunningServer;

beforeAll(async () => {
  database = await createTestDatabase();
  const target = new URL(database.url);
  proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
  const viaProxy = new URL(database.url);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  const [temporalHost, temporalPort] = harnessState().temporalAddress.split(':');
  temporalProxy = await startTcpProxy(temporalHost!, Number(temporalPort));
  const config = loadConfig({ ...testEnv(database, 'ready-'), DATABASE_URL: viaProxy.toString() });
  services = await createApiServices(
    config,
    { databaseUrl: viaProxy.toString(), temporalAddress: `127.0.0.1:${temporalProxy.port}` },
    createLogger('silent'),
  );
  server = await listen(createApp(services), '127.0.0.1', 0, services.readiness, createLogger('silent'));
});
afterAll(async () => {
  await server.shutdown(1000);
  await closeServices(services);
  await database.drop();
  await proxy.cut();
  await temporalProxy.cut();
});

describe('readiness while PostgreSQL is unreachable', () => {
  it('turns 503 with the reason, keeps liveness 200, and recovers when the database returns', async () => {
    const http = httpClient(server.url);
    expect((await http.get('/readyz')).status).toBe(200);

    await proxy.cut();
    const down = await eventually(
      async () => {
        const res = await http.get<{ status: string; reasons: Record<string, string> }>('/readyz');
        return res.status === 503 ? res : null;
      },
      20_000,
      'readiness 503',
    );
    expect(down.body.status).toBe('not ready');
    expect(Object.keys(down.body.reasons)).toContain('postgres');
    expect((await http.get('/healthz')).status).toBe(200);
    // An error answer says the same: 503, retry later, never a 500 (issue 34).
    const login = await http.post<{ error: string }>('/api/v1/auth/login', {
      body: { email: 'someone@example.test', password: 'not-the-password' },
    });
    expect([login.status, login.headers.get('retry-after')]).toEqual([503, '5']);
    expect(login.body.error).toMatch(/^service unavailable: (PostgreSQL|a dependency) is unreachable/);

    await proxy.restore();
    await eventually(async () => (await http.get('/readyz')).status === 200, 20_000, 'readiness 200 again');
  });

  it('turns 503 while Temporal is unreachable, and the client errors of the outage read as Temporal unavailable', async () => {
    const http = httpClient(server.url);
    expect((await http.get('/readyz')).status).toBe(200);
    await temporalProxy.cut();
    const down = await eventually(
      async () => {
        const res = await http.get<{ reasons: Record<string, string> }>('/readyz');
        return res.status === 503 ? res : null;
      },
      30_000,
      'readiness 503',
    );
    expect(Object.keys(down.body.reasons)).toEqual(['temporal']);
    // A deadline, as a request's own would be: without one the client's retries of UNAVAILABLE take about 20 s.
    const failed = await services.temporal.connection
      .withDeadline(Date.now() + 3000, () =>
        services.temporal.workflow.getHandle('readiness-no-such-workflow').describe(),
      )
      .catch((err: unknown) => err);
    expect(unavailableDependency(failed)).toBe('Temporal');
    expect(unavailableDependency(new Error('a bug of ours'))).toBeNull();

    await temporalProxy.restore();
    // The reconnect backoff is capped at TEMPORAL_RECONNECT_MAX (5 s; gRPC's own cap of 120 s took 12 s here).
    await eventually(async () => (await http.get('/readyz')).status === 200, 15_000, 'readiness 200 again');
  }, 120_000);

  it('turns 503 for good once shutdown starts draining', async () => {
    services.readiness.startDraining();
    const res = await httpClient(server.url).get<{ reasons: Record<string, string> }>('/readyz');
    expect(res.status).toBe(503);
    expect(res.body.reasons).toEqual({ shutdown: 'shutting down' });
  });
});
