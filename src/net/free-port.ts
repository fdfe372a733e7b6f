import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

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

/** The folder in which the processes of one test run claim the ports they were handed (set by its global setup). */
export const PORT_LEDGER_ENV = 'FREE_PORT_LEDGER';

/**
 * Claims `port` for this caller in the run's ledger (a file per port, created exclusively): false when another
 * process of the run was handed it already, which may not have bound it yet. Without a ledger, every port is claimed.
 */
function claim(port: number): boolean {
  const ledger = process.env[PORT_LEDGER_ENV];
  if (!ledger) return true;
  try {
    fs.closeSync(fs.openSync(path.join(ledger, String(port)), 'wx'));
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'ENOENT') return true;
    throw err;
  }
}

/**
 * A loopback port free now, for a server started a little later (tests, benches). Taken below the ephemeral range:
 * there, any outgoing connection of a busy machine may hold the number as its local port by the time the server binds
 * it (EADDRINUSE), which a port the OS hands out for `listen(0)`, from that same range, risks each time. Within a test
 * run, never a port handed to another of its processes: two of them picking the same number before either bound it
 * made a platform's start fail with EADDRINUSE (a fresh-clone run of 22788a6, the quickstart test).
 */
export async function freePort(): Promise<number> {
  const high = ephemeralLow() - 1;
  for (let attempt = 0; high > LOWEST && attempt < 50; attempt++) {
    const port = await listenOn(LOWEST + Math.floor(Math.random() * (high - LOWEST)));
    if (port !== null && claim(port)) return port;
  }
  const port = await listenOn(0);
  if (port === null) throw new Error('no free loopback port');
  return port;
}
