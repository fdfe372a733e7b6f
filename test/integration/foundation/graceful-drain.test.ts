import http from 'node:http';
import { exited } from '../../helpers/child-process';
import { startApiProcess } from '../../helpers/platform-process';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

/**
 * Issue 43, M3: on SIGTERM an API turns readiness 503 at once and keeps accepting for SHUTDOWN_DRAIN_DELAY, so the
 * load balancer (which learns of the 503 at its next probe) never meets a refused connection; then it stops.
 */
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
}, 120_000);
afterAll(() => platform.close());

interface Attempt {
  sentAt: number;
  status: number | null;
  error: string | null;
}

/** One request on a connection of its own (as a balancer's new connection): its status, or why it failed. */
function attempt(url: string): Promise<Attempt> {
  const sentAt = Date.now();
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ sentAt, status: res.statusCode ?? 0, error: null }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ sentAt, status: null, error: err.code ?? err.message }));
  });
}

it('answers every connection until readiness has been 503 for the drain delay, then stops', async () => {
  const drainMs = 2_000;
  const api = await startApiProcess(platform, { SHUTDOWN_DRAIN_DELAY: `${drainMs}ms`, SHUTDOWN_GRACE: '5s' });
  const attempts: Attempt[] = [];
  let notReadySince: number | null = null;
  let running = true;
  const loop = (async () => {
    while (running) {
      const [health, ready] = await Promise.all([attempt(`${api.url}/healthz`), attempt(`${api.url}/readyz`)]);
      attempts.push(health, ready);
      if (ready.status === 503 && notReadySince === null) notReadySince = ready.sentAt;
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  await new Promise((r) => setTimeout(r, 300));
  const signalledAt = Date.now();
  api.child.kill('SIGTERM');
  const code = await exited(api.child);
  running = false;
  await loop;
  // No request sent before readiness had been 503 for the drain delay was refused (or failed otherwise).
  const drainFrom = notReadySince ?? signalledAt;
  const failedEarly = attempts.filter((a) => a.error !== null && a.sentAt < drainFrom + drainMs);
  expect(failedEarly).toEqual([]);
  expect(code).toBe(0);
  // Readiness turned 503 at once (well before the listener closed).
  expect(notReadySince).not.toBeNull();
  expect(notReadySince! - signalledAt).toBeLessThan(drainMs / 2);
  expect(attempts.filter((a) => a.sentAt > signalledAt && a.status !== null).length).toBeGreaterThan(10);
}, 180_000);
