/**
 * Tells an outage of an engine the platform depends on (PostgreSQL, Temporal) from a fault of its own, so an error
 * answer says 503 (retry later, the load balancer's readiness agrees) rather than 500. It walks the error's cause chain:
 * knex and the Temporal client wrap the network error they met.
 */
export type Dependency = 'PostgreSQL' | 'Temporal' | 'the Git volume' | 'a dependency';

/** Socket-level failures: the peer is down, unreachable or went away mid-request. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  // The engine's host name does not resolve (DNS down, a Service without endpoints).
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * SQLSTATE class 08 (connection exception), the server shutting down, starting up or ending the session
 * (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 57P05 idle_session_timeout) and 53300
 * too_many_connections.
 */
const POSTGRES_DOWN = /^(08|57P0[1-35]|53300)/;
/** gRPC UNAVAILABLE (14) and DEADLINE_EXCEEDED (4): the Temporal frontend cannot be reached in time. */
const GRPC_DOWN = new Set([4, 14]);
/**
 * node-postgres and knex throw these without a code: a connection lost or closed (`Connection terminated
 * unexpectedly`, `... due to connection timeout`), a client reused after its connection failed or ended, pg-pool's
 * connect timeout, knex's pool acquire timeout (`Knex: Timeout acquiring a connection. The pool is probably full...`).
 */
const POSTGRES_MESSAGES =
  /^Connection terminated|^(Knex: )?Timeout acquiring a connection|^Client has encountered a connection error and is not queryable|^Client was closed and is not queryable|^timeout exceeded when trying to connect/;

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
}

function dependencyOf(err: ErrorLike): Dependency | null {
  const name = String(err.name ?? '');
  const message = String(err.message ?? '');
  if (name === 'RepositoryMissing' || name === 'RepositoryVolumeRefused') return 'the Git volume';
  if (name === 'KnexTimeoutError' || POSTGRES_MESSAGES.test(message)) return 'PostgreSQL';
  if (typeof err.code === 'string' && POSTGRES_DOWN.test(err.code) && err.code.length === 5) return 'PostgreSQL';
  if (name === 'ConnectionError' || name === 'ServiceError') {
    const grpc = (err.cause as ErrorLike | undefined)?.code;
    if (name === 'ConnectionError' || (typeof grpc === 'number' && GRPC_DOWN.has(grpc))) return 'Temporal';
  }
  if (typeof err.code === 'number' && GRPC_DOWN.has(err.code) && 'details' in err) return 'Temporal';
  return null;
}

/** The engine whose outage caused `err`, or null when it is not an outage. */
export function unavailableDependency(err: unknown): Dependency | null {
  let network = false;
  for (let current = err, depth = 0; typeof current === 'object' && current !== null && depth < 8; depth++) {
    const e = current as ErrorLike;
    const found = dependencyOf(e);
    if (found) return found;
    if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) network = true;
    current = e.cause;
  }
  // A bare socket error naming no engine (the pool's connect refused): still an outage, not our fault.
  return network ? 'a dependency' : null;
}
