import { freePort } from './net';

/**
 * Settings of an embedded run (`npm start`'s own PostgreSQL and Temporal dev server) on free ports under `dataDir`,
 * with nothing external inherited from the test process.
 */
export async function embeddedEnv(dataDir: string): Promise<Record<string, string>> {
  return {
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    TEMPORAL_PORT: String(await freePort()),
    TEMPORAL_UI_PORT: String(await freePort()),
    TEMPORAL_HTTP_PORT: String(await freePort()),
    TEMPORAL_METRICS_PORT: String(await freePort()),
    EMBEDDED_PG_PORT: String(await freePort()),
    // The agents' gRPC port too: 8091 by default, which another run on the machine may hold.
    AGENT_GRPC_PORT: '0',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    TEMPORAL_ADDRESS: '',
  };
}
