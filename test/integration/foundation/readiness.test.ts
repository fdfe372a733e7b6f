import { loadConfig } from '../../../src/config';
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
let services: ApiServices;
let server: RunningServer;

beforeAll(async () => {
  database = await createTestDatabase();
  const target = new URL(database.url);
  proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
  const viaProxy = new URL(database.url);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  const config = loadConfig({ ...testEnv(database, 'ready-'), DATABASE_URL: viaProxy.toString() });
  services = await createApiServices(
    config,
    { databaseUrl: viaProxy.toString(), temporalAddress: harnessState().temporalAddress },
    createLogger('silent'),
  );
  server = await listen(createApp(services), '127.0.0.1', 0, services.readiness, createLogger('silent'));
});
afterAll(async () => {
  await server.shutdown(1000);
  await closeServices(services);
  await database.drop();
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

    await proxy.restore();
    await eventually(async () => (await http.get('/readyz')).status === 200, 20_000, 'readiness 200 again');
  });

  it('turns 503 for good once shutdown starts draining', async () => {
    services.readiness.startDraining();
    const res = await httpClient(server.url).get<{ reasons: Record<string, string> }>('/readyz');
    expect(res.status).toBe(503);
    expect(res.body.reasons).toEqual({ shutdown: 'shutting down' });
  });
});
