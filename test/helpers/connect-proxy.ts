import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP CONNECT proxy on loopback standing in for an egress proxy: it records every CONNECT authority and its
 * Proxy-Authorization, tunnels to loopback targets and answers 403 to any other (tests never leave the host).
 */
export async function startConnectProxy() {
  const connects: { authority: string; auth: string | undefined }[] = [];
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const authority = req.url ?? '';
    connects.push({ authority, auth: req.headers['proxy-authorization'] });
    const split = authority.lastIndexOf(':');
    const host = authority.slice(0, split).replace(/^\[|\]$/g, '');
    if (host !== '127.0.0.1') {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = net.connect({ host, port: Number(authority.slice(split + 1)) }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (auth = '') => `http://${auth}127.0.0.1:${port}`,
    connects,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
