import http from 'node:http';
import type { Registry } from 'prom-client';
import { readinessAnswer, type Readiness } from './readiness';

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};

/**
 * A worker-only process serves no API, yet its activity-failure counters and Node metrics must be scrapeable, and
 * its readiness (the engines and the start-up self-checks) visible: a minimal listener with /metrics, /healthz and
 * /readyz.
 */
export async function startMetricsServer(registry: Registry, host: string, port: number, readiness: Readiness) {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/readyz') {
      readinessAnswer(readiness).then(
        (answer) => json(res, answer.status, answer.body),
        () => json(res, 500, { error: 'internal server error' }),
      );
      return;
    }
    if (req.method === 'GET' && path === '/metrics') {
      registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'Content-Type': registry.contentType });
          res.end(text);
        },
        () => json(res, 500, { error: 'internal server error' }),
      );
      return;
    }
    const ok = req.method === 'GET' && path === '/healthz';
    json(res, ok ? 200 : 404, ok ? { status: 'ok' } : { error: 'not found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
