import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A load balancer without sticky routing, as in front of several API processes: each HTTP request goes to the next
 * upstream in turn (never pinned to a connection). An upstream that refuses the connection (stopped, restarting) is
 * skipped for that request, the way a balancer's health check would, and the request goes to the next; an error after
 * the request was sent is answered 502 (the client decides whether to resend).
 */
export async function startRoundRobinProxy() {
  let upstreams: string[] = [];
  let next = 0;
  const served = new Map<string, number>();

  function forward(target: string, req: http.IncomingMessage, body: Buffer) {
    return new Promise<http.IncomingMessage>((resolve, reject) => {
      const out = http.request(
        `${target}${req.url ?? '/'}`,
        { method: req.method, headers: req.headers, agent: false },
        resolve,
      );
      out.on('error', reject);
      out.end(body);
    });
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        for (let tried = 0; tried < Math.max(upstreams.length, 1) * 20; tried += 1) {
          const target = upstreams[next++ % upstreams.length];
          if (!target) break;
          try {
            const answer = await forward(target, req, body);
            served.set(target, (served.get(target) ?? 0) + 1);
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            return;
          } catch (err) {
            // Refused before anything was sent: safe to try the next one; anything else is the client's to handle.
            if ((err as NodeJS.ErrnoException).code !== 'ECONNREFUSED') break;
            if ((tried + 1) % upstreams.length === 0) await new Promise((r) => setTimeout(r, 250));
          }
        }
        res.writeHead(502).end('no upstream answered');
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    /** The upstream base URLs, taken in turn. */
    route(targets: string[]) {
      upstreams = [...targets];
    },
    /** How many requests each upstream answered. */
    served: () => new Map(served),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
