import net from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { clientInterceptors } from '../../../src/temporal/connection';

/** A port that refuses connections: bound, then closed again. */
async function refusingAddress(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `127.0.0.1:${port}`;
}

describe('a Temporal client closed while a call is in retry backoff', () => {
  it('ends the call instead of retrying on the closed channel from a timer (an uncaught exception otherwise)', async () => {
    const uncaught: unknown[] = [];
    const record = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', record);
    try {
      // The platform's interceptors on a lazy connection to a refusing port: every attempt fails UNAVAILABLE.
      const connection = Connection.lazy({ address: await refusingAddress(), interceptors: clientInterceptors() });
      const client = new Client({ connection });
      const call = client.workflow
        .getHandle('no-such-workflow')
        .describe()
        .catch((err: unknown) => err);
      await new Promise((resolve) => setTimeout(resolve, 400)); // a few attempts fail UNAVAILABLE; one is in backoff
      await client.connection.close();
      expect(await call).toBeInstanceOf(Error);
      await new Promise((resolve) => setTimeout(resolve, 3_000)); // past the pending retry timer
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', record);
    }
  }, 30_000);
});
