import http from 'node:http';
import type { Registry } from 'prom-client';

/**
 * A worker-only process serves no API, yet its activity-failure counters and Node metrics must be scrapeable:
 * a minimal listener with /metrics and /healthz.
 */
export async function startMetricsServer(registry: Registry, host: string, port: number) {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/metrics') {
      registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'Content-Type': registry.contentType });
          res.end(text);
        },
        () => {
          res.writeHead(500, { 'Content-Type': 'application/json' });
          res.end('{"error":"internal server error"}');
        },
      );
      return;
    }
    const ok = req.method === 'GET' && path === '/healthz';
    res.writeHead(ok ? 200 : 404, { 'Content-Type': 'application/json' });
    res.end(ok ? '{"status":"ok"}' : '{"error":"not found"}');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
