import net from 'node:net';

/** A loopback TCP proxy that can be cut and restored, to simulate a database outage on a real connection path. */
export async function startTcpProxy(targetHost: string, targetPort: number) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(targetPort, targetHost);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        const address = server?.address();
        port = typeof address === 'object' && address ? address.port : port;
        resolve();
      });
    });
  await open();
  return {
    get port() {
      return port;
    },
    /** Refuses new connections and drops the open ones. */
    cut: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        if (server) server.close(() => resolve());
        else resolve();
        server = null;
      }),
    restore: open,
  };
}
