import fs from 'node:fs';
import net from 'node:net';

/** The lowest port of the kernel's ephemeral range (Linux), from which outgoing connections take their local ports. */
function ephemeralLow(): number {
  try {
    return Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return 0;
  }
}

const LOWEST = 10_000;

function listenOn(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : null;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A loopback port free now, for a server started a little later (tests, benches). Taken below the ephemeral range:
 * there, any outgoing connection of a busy machine may hold the number as its local port by the time the server binds
 * it (EADDRINUSE), which a port the OS hands out for `listen(0)`, from that same range, risks each time.
 */
export async function freePort(): Promise<number> {
  const high = ephemeralLow() - 1;
  for (let attempt = 0; high > LOWEST && attempt < 50; attempt++) {
    const port = await listenOn(LOWEST + Math.floor(Math.random() * (high - LOWEST)));
    if (port !== null) return port;
  }
  const port = await listenOn(0);
  if (port === null) throw new Error('no free loopback port');
  return port;
}
