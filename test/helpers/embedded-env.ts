import { harnessState } from './harness-state';
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
    // The workflow bundle built once for the run, as the README's command runs on the one `npm run build` made: from
    // source each start would bundle workflows/ again (webpack, about 10 CPU-s).
    WORKFLOW_BUNDLE_PATH: harnessState().bundlePath,
  };
}
