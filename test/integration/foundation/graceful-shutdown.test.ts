import http from 'node:http';
import { createApp } from '../../../api/app';
import { listen } from '../../../api/server';
import { createLogger } from '../../../src/logging/logger';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
});
afterAll(() => platform.close());

/** Starts a POST whose body arrives in two parts, so the request is in flight until `finish` is called. */
function slowRequest(url: string) {
  const body = JSON.stringify({ hello: 'world' });
  const req = http.request(`${url}/api/v2/nothing`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
  });
  const response = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 5));
  return { response, finish: () => req.end(body.slice(5)) };
}

describe('graceful shutdown', () => {
  it('turns readiness 503, lets the in-flight request finish, then closes', async () => {
    const server = await listen(
      createApp(platform.services),
      '127.0.0.1',
      0,
      platform.services.readiness,
      createLogger('silent'),
    );
    const inflight = slowRequest(server.url);
    await new Promise((r) => server.server.once('request', r));
    const stopping = server.shutdown(10_000);
    expect((await platform.services.readiness.evaluate()).ready).toBe(false);
    inflight.finish();
    expect(await inflight.response).toBe(404);
    const started = Date.now();
    await stopping;
    // Well under the 5 s keep-alive timeout: idle sockets are reaped as soon as their response ends.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(server.server.listening).toBe(false);
  });

  it('closes a stalled request once the grace time is over', async () => {
    const server = await listen(
      createApp(platform.services),
      '127.0.0.1',
      0,
      platform.services.readiness,
      createLogger('silent'),
    );
    const stalled = slowRequest(server.url);
    await new Promise((r) => server.server.once('request', r));
    await server.shutdown(300);
    await expect(stalled.response).rejects.toThrow();
    expect(server.server.listening).toBe(false);
  });
});
