import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import type { Logger } from '../src/logging/logger';
import type { Readiness } from '../src/http/readiness';
import type { AppState } from './context';

export interface RunningServer {
  url: string;
  server: http.Server;
  /**
   * Readiness 503 first; keep accepting for drainDelayMs (balancers and endpoints learn of the 503 and stop sending),
   * then stop accepting, let in-flight requests finish, force-close after graceMs.
   */
  shutdown(graceMs: number, drainDelayMs?: number): Promise<void>;
}

export async function listen(app: Koa<AppState>, host: string, port: number, readiness: Readiness, log: Logger) {
  const server = http.createServer(app.callback());
  server.headersTimeout = 30_000;
  // Idle keep-alive connections outlive the clients' and load balancers' own idle timeouts (undici 4 s, AWS ALB 60 s):
  // a client then always closes first. With Node's 5 s default, a client busy past its own timer reused a socket the
  // server had just closed, and its request failed with ECONNRESET.
  server.keepAliveTimeout = 65_000;
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { port: actual } = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const running: RunningServer = {
    url: `http://${shownHost}:${actual}`,
    server,
    async shutdown(graceMs, drainDelayMs = 0) {
      readiness.startDraining();
      // A listener closed at once refuses the connections a balancer still sends until it sees readiness fail.
      if (drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, drainDelayMs));
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive sockets become idle as their last response ends: reap them as they do, not at keepAliveTimeout.
      server.closeIdleConnections();
      const reaper = setInterval(() => server.closeIdleConnections(), 50);
      const timer = setTimeout(() => {
        log.warn('grace time over, closing remaining connections');
        server.closeAllConnections();
      }, graceMs);
      await closed;
      clearInterval(reaper);
      clearTimeout(timer);
    },
  };
  return running;
}
