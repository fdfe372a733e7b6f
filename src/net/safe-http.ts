import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { literalAddress } from './address-policy';
import { checkTarget, TargetRefused, type CheckedTarget, type OutboundPolicy, type Resolver } from './outbound-policy';
import { openTunnel } from './proxy-tunnel';

export interface SafeSendLimits {
  /** NOTIFY_CONNECT_TIMEOUT_MS: TCP (and TLS) connection set-up. */
  connectTimeoutMs: number;
  /** NOTIFY_TOTAL_TIMEOUT_MS: the whole exchange, first byte to last. */
  totalTimeoutMs: number;
  /** NOTIFY_RESPONSE_CAP_BYTES: bytes of the response read; the rest is dropped and the socket closed. */
  responseCapBytes: number;
}

export interface OutboundRequest {
  url: string;
  /** POST by default; GET and HEAD send no body (a registry's poll, src/watch). */
  method?: 'POST' | 'PUT' | 'GET' | 'HEAD';
  headers: Record<string, string>;
  body?: string;
}

/**
 * What one attempt did: `refused` never left the host (SSRF rules), `timeout` hit a limit, `throttled` was not sent
 * because the target asked to be left alone (the channel sender decides that, never this module).
 */
export type AttemptStatus = 'success' | 'failed' | 'timeout' | 'refused' | 'throttled';

export interface AttemptResult {
  status: AttemptStatus;
  responseStatus: number | null;
  /** The first bytes of the response body (capped), for the delivery log. */
  responseBody: string | null;
  error: string | null;
  durationMs: number;
  /** `Retry-After` of a 429 or 503 answer, in milliseconds (seconds form only), for a retrying caller. */
  retryAfterMs?: number;
  /** The response's headers (absent when there was no response). */
  headers?: http.IncomingHttpHeaders;
}

export type SafeSender = (request: OutboundRequest) => Promise<AttemptResult>;

/**
 * The connection through the egress proxy (NOTIFY_EGRESS_PROXY): a CONNECT tunnel to the checked address, then TLS
 * over it for https (SNI and certificate check against the host name, as without a proxy). `connected` is called
 * when the tunnel carries plain HTTP (https waits for `secureConnect` like a direct connection).
 */
function proxiedConnection(proxy: URL, target: CheckedTarget, connected: () => void) {
  return (_options: unknown, oncreate: (err: Error | null, socket: Duplex) => void): undefined => {
    const port = Number(target.url.port || (target.url.protocol === 'https:' ? 443 : 80));
    openTunnel(proxy, target.address, port).then(
      (tunnel) => {
        if (target.url.protocol !== 'https:') {
          connected();
          oncreate(null, tunnel);
          return;
        }
        const name = literalAddress(target.url.hostname) === null ? target.url.hostname : undefined;
        oncreate(
          null,
          tls.connect({ socket: tunnel, host: target.url.hostname, servername: name, ALPNProtocols: ['http/1.1'] }),
        );
      },
      // A failed connection has no socket: Node's own agents call back with the error alone.
      (err: Error) => Reflect.apply(oncreate, undefined, [err]),
    );
    return undefined;
  };
}

/**
 * One HTTP attempt to a tenant-chosen URL (SS-1 to SS-5): the target is checked afresh for every send, the socket is
 * pinned to the checked address through `lookup` (TLS still verifies the certificate against the host name), a 3xx
 * answer is a failure and is never followed, and connect/total timeouts and the response cap bound the work. With
 * an egress proxy (SS-6) the same checked address is what the proxy is asked to connect to.
 */
export function createSafeSender(policy: OutboundPolicy, limits: SafeSendLimits, resolve?: Resolver): SafeSender {
  return async (request) => {
    const started = Date.now();
    const done = (partial: Omit<AttemptResult, 'durationMs'>): AttemptResult => ({
      ...partial,
      durationMs: Date.now() - started,
    });
    let target;
    try {
      target = await checkTarget(request.url, policy, resolve);
    } catch (err) {
      if (!(err instanceof TargetRefused)) throw err;
      return done({ status: 'refused', responseStatus: null, responseBody: null, error: err.message });
    }
    const pinned: LookupFunction = (_host, options, callback) => {
      if ((options as { all?: boolean }).all) callback(null, [{ address: target.address, family: target.family }]);
      else callback(null, target.address, target.family);
    };
    return new Promise<AttemptResult>((resolvePromise) => {
      let settled = false;
      const finish = (result: Omit<AttemptResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(total);
        clearTimeout(connect);
        resolvePromise(done(result));
      };
      const transport = target.url.protocol === 'https:' ? https : http;
      const req = transport.request(target.url, {
        method: request.method ?? 'POST',
        headers:
          request.body === undefined
            ? request.headers
            : { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        lookup: pinned,
        // A fresh connection per send; through the proxy, no agent at all (Node then calls createConnection).
        ...(policy.egressProxy
          ? { createConnection: proxiedConnection(new URL(policy.egressProxy), target, () => clearTimeout(connect)) }
          : { agent: false }),
      });
      const timedOut = (what: string) => {
        finish({ status: 'timeout', responseStatus: null, responseBody: null, error: `${what} timed out` });
        req.destroy();
      };
      const total = setTimeout(() => timedOut('request'), limits.totalTimeoutMs);
      const connect = setTimeout(() => timedOut('connection'), limits.connectTimeoutMs);
      req.on('socket', (socket) => {
        socket.once(target.url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connect));
      });
      req.on('error', (err) =>
        finish({ status: 'failed', responseStatus: null, responseBody: null, error: err.message }),
      );
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const complete = () => {
          const code = res.statusCode ?? 0;
          const body = Buffer.concat(chunks).subarray(0, limits.responseCapBytes).toString('utf8');
          const redirect = code >= 300 && code < 400;
          const retryAfter = /^\d{1,6}$/.exec(String(res.headers['retry-after'] ?? ''))?.[0];
          finish({
            status: code >= 200 && code < 300 ? 'success' : 'failed',
            responseStatus: code,
            responseBody: body,
            error: redirect ? 'redirect not followed' : null,
            headers: res.headers,
            ...(retryAfter !== undefined ? { retryAfterMs: Number(retryAfter) * 1000 } : {}),
          });
        };
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          chunks.push(chunk);
          if (size >= limits.responseCapBytes) {
            complete();
            res.destroy();
          }
        });
        res.on('end', complete);
        res.on('error', complete);
      });
      if (request.body === undefined) req.end();
      else req.end(request.body);
    });
  };
}
