import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a stand-in service received it. */
export interface Received {
  at: number;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A real local HTTP server standing in for the notified services: it records every request and answers by path
 * (`/fail` 500 with a long body, `/gone` 410, `/busy` 429 with `Retry-After: 1` (`/busy?after=N`: N seconds),
 * `/badgateway` 502, `/slow` never before `slowMs`, `/redirect` 302 to `redirectTo`, anything else 200).
 */
export async function startReceiver(opts: { port?: number; slowMs?: number; redirectTo?: string } = {}) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({
        at: Date.now(),
        method: req.method ?? '',
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (path.startsWith('/fail')) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('x'.repeat(10_000));
      } else if (path.startsWith('/gone')) {
        res.writeHead(410).end('gone');
      } else if (path.startsWith('/busy')) {
        const after = new URL(path, 'http://receiver').searchParams.get('after') ?? '1';
        res.writeHead(429, { 'retry-after': after }).end('busy');
      } else if (path.startsWith('/badgateway')) {
        res.writeHead(502).end('bad gateway');
      } else if (path.startsWith('/slow')) {
        setTimeout(() => res.writeHead(200).end('late'), opts.slowMs ?? 5_000).unref();
      } else if (path.startsWith('/redirect')) {
        res.writeHead(302, { location: opts.redirectTo ?? '/' }).end();
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    at: (path: string) => received.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
