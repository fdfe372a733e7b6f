import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createOrg, createUser } from '../../src/admin/operator-commands';
import { loadConfig } from '../../src/config';
import { sharedSettings } from '../../src/config/shared-settings';
import { createLogger } from '../../src/logging/logger';
import { resolveEndpoints } from '../../src/runtime/embedded';
import { runPlatform } from '../../scripts/platform';
import type { Services } from '../../src/runtime/services';
import { benchPorts } from '../ports';

/**
 * The whole platform on embedded defaults in a throwaway DATA_DIR (API, worker, PostgreSQL, Temporal), with an owner
 * and a token, so the HTTP figures come from the real route, auth chain included.
 */
export async function startBenchPlatform(
  env: Record<string, string> = {},
  opts: { worker?: boolean } = {},
): Promise<{
  baseUrl: string;
  token: string;
  databaseUrl: string;
  services: Services;
  /** The environment another process (`scripts/serve.ts api`) joins this platform with: same database, Temporal, data. */
  joinEnv: Record<string, string>;
  stop(): Promise<void>;
}> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-validate-platform-'));
  fs.chmodSync(dataDir, 0o755);
  const config = loadConfig({
    DATA_DIR: dataDir,
    // Every port from the environment when set, else a free one (the agent listener off): two benches never collide.
    ...(await benchPorts()),
    PATH: process.env.PATH,
    LOG_LEVEL: 'warn',
    ...env,
  });
  const log = createLogger('warn');
  const endpoints = await resolveEndpoints(config, log);
  const platform = await runPlatform(
    config,
    endpoints,
    { api: true, worker: opts.worker ?? false, migrate: true },
    log,
  );
  await platform.services.validation.init({ preload: ['1.29'] });
  const user = await createUser(
    { ...platform.services, passwordPolicy: platform.api!.identity.passwordPolicy },
    { email: 'bench@example.test', password: 'bench password 1' },
  );
  const org = await createOrg(platform.services, { slug: 'bench', name: 'Bench', owner: user.email });
  const { token } = await platform.api!.accessTokens.sign({
    userId: user.id,
    email: user.email,
    organizationId: org.id,
    role: 'owner',
  });
  return {
    baseUrl: platform.http!.url,
    token,
    databaseUrl: endpoints.databaseUrl,
    services: platform.services,
    joinEnv: {
      ...sharedSettings(config),
      DATA_DIR: dataDir,
      DATABASE_URL: endpoints.databaseUrl,
      TEMPORAL_ADDRESS: endpoints.temporalAddress,
      AGENT_GRPC_PORT: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    async stop() {
      await platform.stop();
      await endpoints.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
