import { freePort } from '../src/net/free-port';

/** The port settings of one embedded platform (API, PostgreSQL, Temporal's gRPC, HTTP, metrics and UI, agents). */
const PORT_SETTINGS = [
  'PORT',
  'EMBEDDED_PG_PORT',
  'TEMPORAL_PORT',
  'TEMPORAL_HTTP_PORT',
  'TEMPORAL_METRICS_PORT',
  'TEMPORAL_UI_PORT',
] as const;

/**
 * Every port a bench's embedded platform binds, from the environment when set (a bench run confined to a port block:
 * `PORT=9100 EMBEDDED_PG_PORT=9101 ... npm run bench:commits`), else a free one; the agents' listener is off unless
 * AGENT_GRPC_PORT names one. A bench that starts several platforms (bench:startup's rounds) takes each round's from
 * here again: the same fixed ports when set, fresh free ones when not.
 */
export async function benchPorts(env: NodeJS.ProcessEnv = process.env): Promise<Record<string, string>> {
  const ports: Record<string, string> = { AGENT_GRPC_PORT: env.AGENT_GRPC_PORT ?? '0' };
  for (const name of PORT_SETTINGS) ports[name] = env[name] ?? String(await freePort());
  return ports;
}
