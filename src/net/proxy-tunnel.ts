import net from 'node:net';

/** Largest CONNECT answer head read from the proxy. */
const MAX_HEAD_BYTES = 8192;

/**
 * A TCP tunnel through an HTTP CONNECT egress proxy (NOTIFY_EGRESS_PROXY) to an address the caller already checked:
 * the CONNECT names the checked IP address, never the host name, so the proxy cannot resolve the name to somewhere
 * else (the connection stays pinned). Credentials in the proxy URL go as `Proxy-Authorization: Basic`. Resolves with
 * the socket once the proxy answered 2xx; rejects on any other answer, a closed connection or an over-long head.
 */
export function openTunnel(proxy: URL, address: string, port: number): Promise<net.Socket> {
  const authority = `${address.includes(':') ? `[${address}]` : address}:${port}`;
  const auth =
    proxy.username === ''
      ? ''
      : `Proxy-Authorization: Basic ${Buffer.from(
          `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`,
        ).toString('base64')}\r\n`;
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: proxy.hostname.replace(/^\[|\]$/g, ''), port: Number(proxy.port || 80) });
    let head = Buffer.alloc(0);
    const fail = (message: string) => {
      socket.destroy();
      reject(new Error(message));
    };
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) {
        if (head.length > MAX_HEAD_BYTES) fail('egress proxy answer too long');
        return;
      }
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('close', onClose);
      const statusLine = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
      if (!/^HTTP\/1\.[01] 2\d\d/.test(statusLine)) return fail(`egress proxy refused the tunnel: ${statusLine}`);
      // Bytes after the head belong to the target (none are expected before we speak first).
      const rest = head.subarray(end + 4);
      if (rest.length > 0) socket.unshift(rest);
      resolve(socket);
    };
    const onError = (err: Error) => fail(`egress proxy: ${err.message}`);
    const onClose = () => fail('egress proxy closed the connection');
    socket.on('data', onData);
    socket.once('error', onError);
    socket.once('close', onClose);
    socket.once('connect', () =>
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth}\r\n`, 'latin1'),
    );
  });
}
