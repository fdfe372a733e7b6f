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
  path: string;
  sentAt: number;
  /** When the answer or the failure came back. */
  endedAt: number;
  status: number | null;
  error: string | null;
}

/** One request on a connection of its own (as a balancer's new connection): its status, or why it failed. */
function attempt(base: string, path: string): Promise<Attempt> {
  const url = `${base}${path}`;
  const sentAt = Date.now();
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ path, sentAt, endedAt: Date.now(), status: res.statusCode ?? 0, error: null }));
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve({ path, sentAt, endedAt: Date.now(), status: null, error: err.code ?? err.message }),
    );
  });
}

it('answers every connection until readiness has been 503 for the drain delay, then stops', async () => {
  const drainMs = 2_000;
  const api = await startApiProcess(platform, { SHUTDOWN_DRAIN_DELAY: `${drainMs}ms`, SHUTDOWN_GRACE: '5s' });
  const attempts: Attempt[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      attempts.push(...(await Promise.all([attempt(api.url, '/healthz'), attempt(api.url, '/readyz')])));
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  await new Promise((r) => setTimeout(r, 300));
  const signalledAt = Date.now();
  api.child.kill('SIGTERM');
  const code = await exited(api.child);
  running = false;
  await loop;
  expect(code).toBe(0);
  // Judged only by what the client saw, so a busy machine cannot fake a failure: readiness turned 503 after the last
  // readiness request answered 200 was sent, so the listener must accept until at least that moment plus the delay.
  // A connection refused (or failing otherwise) before then is a broken promise.
  const lastReady = attempts.filter((a) => a.path === '/readyz' && a.status === 200).at(-1);
  const turnedNotReadyAfter = lastReady?.sentAt ?? signalledAt;
  const failedEarly = attempts.filter((a) => a.error !== null && a.endedAt < turnedNotReadyAfter + drainMs);
  expect(failedEarly).toEqual([]);
  // Readiness said 503 while the listener still accepted: the balancer learns of the drain before a refusal.
  const firstNotReady = attempts.find((a) => a.path === '/readyz' && a.status === 503);
  const firstFailure = attempts.find((a) => a.error !== null);
  expect(firstNotReady).toBeDefined();
  if (firstFailure) expect(firstNotReady!.endedAt).toBeLessThanOrEqual(firstFailure.endedAt);
  expect(attempts.filter((a) => a.sentAt > signalledAt && a.status !== null).length).toBeGreaterThan(10);
}, 180_000);
