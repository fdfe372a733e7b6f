import path from 'node:path';
import {
  ConfigError,
  Env,
  readBool,
  readDurationMs,
  readEnum,
  readInt,
  readOptional,
  readString,
  readUrl,
} from './parse';
import { loadIdentityConfig, type IdentityConfig } from './identity';
import { loadGitopsConfig, type GitopsConfig } from './gitops';
import { loadReleasesConfig, type ReleasesConfig } from './releases';
import { loadPromotionsConfig, type PromotionsConfig } from './promotions';
import { loadGovernanceConfig, type GovernanceConfig } from './governance';
import { loadOrgsConfig, type OrgsConfig } from './orgs';
import { loadRegistryConfig, type RegistryConfig } from './registry';
import { loadWatchConfig, type WatchConfig } from './watch';
import { loadNotificationsConfig, type NotificationsConfig } from './notifications';
import { loadWebhooksConfig, type WebhooksConfig } from './webhooks';
import { loadClustersConfig, type ClustersConfig } from './clusters';

export { ConfigError } from './parse';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface TemporalConfig {
  /** host:port of the frontend; undefined means the embedded dev server is started. */
  address: string | undefined;
  namespace: string;
  tlsCertPath: string | undefined;
  tlsKeyPath: string | undefined;
  tlsCaPath: string | undefined;
  tlsServerName: string | undefined;
  apiKey: string | undefined;
  cliPath: string | undefined;
  /** Directories searched for the `temporal` binary when cliPath is unset (the PATH variable). */
  cliSearchPath: string[];
  embeddedPort: number;
  uiPort: number;
  /** The embedded dev server's HTTP API and /metrics ports (fixed, so a deployment's ports are all known). */
  httpPort: number;
  metricsPort: number;
  /** Prefixed to every task queue name, so several deployments (or test files) can share one namespace. */
  taskQueuePrefix: string;
  /**
   * TEMPORAL_RECONNECT_MAX: the longest wait between the client's reconnect attempts after it lost the frontend
   * (gRPC's own default is 120 s, so after an outage of a minute the API stayed not ready for tens of seconds more).
   */
  reconnectMaxBackoffMs: number;
  /** Prebuilt workflow bundle; unset means dist/workflow-bundle.js for compiled code, else bundling from source. */
  workflowBundlePath: string | undefined;
}

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  /** undefined means the embedded PostgreSQL is started under dataDir. */
  databaseUrl: string | undefined;
  databasePoolMax: number;
  embeddedPostgresPort: number;
  temporal: TemporalConfig;
  logLevel: LogLevel;
  bodyLimitBytes: number;
  shutdownGraceMs: number;
  /**
   * SHUTDOWN_DRAIN_DELAY: after a SIGTERM, how long the API keeps accepting connections with readiness already 503,
   * so load balancers and Kubernetes endpoints stop sending before the listener closes (issue 43, M3). 5s by default
   * in split mode (processes behind a balancer); 0 for `npm start`, where no balancer waits and Ctrl-C should be quick.
   */
  shutdownDrainDelayMs: number;
  /**
   * CLOCK_SKEW_MAX: how far this process's clock may be from PostgreSQL's before /readyz answers 503 (issue 43, M2):
   * tokens, webhook signatures and timestamps are judged by the local clock. 30s by default.
   */
  clockSkewMaxMs: number;
  /** Number of trusted reverse proxies in front of the API; 0 means X-Forwarded-For is ignored. */
  trustedProxyCount: number;
  auditPageMax: number;
  workerShutdownGraceMs: number;
  /**
   * WORKER_STICKY_TIMEOUT: how long a workflow's next task waits on the queue of the worker that ran its last one
   * (which has its history cached) before any worker may take it. A worker killed mid-workflow stalls its workflows
   * this long. The SDK's 10s by default.
   */
  workerStickyTimeoutMs: number;
  exposeMetrics: boolean;
  /** Port of the /metrics and /healthz listener of a worker-only process; 0 disables it. */
  workerMetricsPort: number;
  jwt: JwtConfig;
  identity: IdentityConfig;
  orgs: OrgsConfig;
  gitops: GitopsConfig;
  releases: ReleasesConfig;
  promotions: PromotionsConfig;
  governance: GovernanceConfig;
  registry: RegistryConfig;
  notifications: NotificationsConfig;
  /** Inbound webhooks (docs/webhooks.md). */
  webhooks: WebhooksConfig;
  clusters: ClustersConfig;
  /** Watch subscriptions' polling of external registries (docs/automation.md). */
  watch: WatchConfig;
}

export interface JwtConfig {
  /** PKCS8 PEM of the ES256 signing key; undefined means a key generated and kept under dataDir. */
  privateKeyPem: string | undefined;
  publicKeyPem: string | undefined;
  /** Public keys of rotated-out signing keys, accepted until the tokens they signed expire. */
  previousPublicKeyPems: string[];
  issuer: string;
  audience: string;
  accessTokenTtlSeconds: number;
}

/** A pure function of the environment: the only place in the code base that reads configuration variables. */
export function loadConfig(env: Env): Config {
  const port = readInt(env, 'PORT', 8080, 0, 65535);
  const dataDir = path.resolve(readString(env, 'DATA_DIR', '.data'));
  const databaseUrl = readUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const temporalAddress = readOptional(env, 'TEMPORAL_ADDRESS');
  if (temporalAddress !== undefined && !/^[^\s/:]+:\d+$/.test(temporalAddress)) {
    throw new ConfigError(`TEMPORAL_ADDRESS must be host:port, got "${temporalAddress}"`);
  }
  const host = readString(env, 'HOST', '127.0.0.1');
  const publicUrl = readUrl(env, 'PUBLIC_URL', ['http:', 'https:']) ?? localUrl(host, port);
  return {
    port,
    host,
    publicUrl,
    dataDir,
    databaseUrl,
    databasePoolMax: readInt(env, 'DATABASE_POOL_MAX', 10, 1, 500),
    embeddedPostgresPort: readInt(env, 'EMBEDDED_PG_PORT', 54329, 1, 65535),
    temporal: {
      address: temporalAddress,
      namespace: readString(env, 'TEMPORAL_NAMESPACE', 'default'),
      tlsCertPath: readOptional(env, 'TEMPORAL_TLS_CERT'),
      tlsKeyPath: readOptional(env, 'TEMPORAL_TLS_KEY'),
      tlsCaPath: readOptional(env, 'TEMPORAL_TLS_CA'),
      tlsServerName: readOptional(env, 'TEMPORAL_TLS_SERVER_NAME'),
      apiKey: readOptional(env, 'TEMPORAL_API_KEY'),
      cliPath: readOptional(env, 'TEMPORAL_CLI_PATH'),
      cliSearchPath: readString(env, 'PATH', '').split(path.delimiter).filter(Boolean),
      embeddedPort: readInt(env, 'TEMPORAL_PORT', 7233, 1, 65535),
      uiPort: readInt(env, 'TEMPORAL_UI_PORT', 8233, 1, 65535),
      httpPort: readInt(env, 'TEMPORAL_HTTP_PORT', 7243, 1, 65535),
      metricsPort: readInt(env, 'TEMPORAL_METRICS_PORT', 7244, 1, 65535),
      taskQueuePrefix: readString(env, 'TEMPORAL_TASK_QUEUE_PREFIX', ''),
      reconnectMaxBackoffMs: readDurationMs(env, 'TEMPORAL_RECONNECT_MAX', 5_000),
      workflowBundlePath: readOptional(env, 'WORKFLOW_BUNDLE_PATH'),
    },
    logLevel: readEnum<LogLevel>(env, 'LOG_LEVEL', ['debug', 'info', 'warn', 'error', 'silent'], 'info'),
    bodyLimitBytes: readInt(env, 'BODY_LIMIT_BYTES', 2 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    shutdownGraceMs: readDurationMs(env, 'SHUTDOWN_GRACE', 10_000),
    shutdownDrainDelayMs: readDurationMs(env, 'SHUTDOWN_DRAIN_DELAY', 0),
    clockSkewMaxMs: readDurationMs(env, 'CLOCK_SKEW_MAX', 30_000),
    trustedProxyCount: readInt(env, 'TRUSTED_PROXY_COUNT', 0, 0, 10),
    auditPageMax: readInt(env, 'AUDIT_PAGE_MAX', 200, 1, 1000),
    workerShutdownGraceMs: readDurationMs(env, 'WORKER_SHUTDOWN_GRACE', 10_000),
    workerStickyTimeoutMs: readDurationMs(env, 'WORKER_STICKY_TIMEOUT', 10_000),
    exposeMetrics: readBool(env, 'METRICS_ENABLED', true),
    workerMetricsPort: readInt(env, 'WORKER_METRICS_PORT', 0, 0, 65535),
    jwt: loadJwtConfig(env, publicUrl),
    identity: loadIdentityConfig(env, publicUrl, dataDir),
    orgs: loadOrgsConfig(env),
    gitops: loadGitopsConfig(env, dataDir),
    releases: loadReleasesConfig(
      env,
      temporalAddress === undefined
        ? `http://127.0.0.1:${readInt(env, 'TEMPORAL_UI_PORT', 8233, 1, 65535)}`
        : undefined,
    ),
    promotions: loadPromotionsConfig(env),
    governance: loadGovernanceConfig(env),
    registry: loadRegistryConfig(env),
    notifications: loadNotificationsConfig(env),
    webhooks: loadWebhooksConfig(env),
    clusters: loadClustersConfig(env),
    watch: loadWatchConfig(env),
  };
}

/**
 * The URL the API answers on locally, which `npm start` prints: the default PUBLIC_URL, so a browser opened on the
 * printed URL passes the refresh Origin check. A wildcard bind address is reached through the loopback address.
 */
function localUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

function loadJwtConfig(env: Env, publicUrl: string): JwtConfig {
  const privateKeyPem = readOptional(env, 'JWT_PRIVATE_KEY');
  const publicKeyPem = readOptional(env, 'JWT_PUBLIC_KEY');
  if ((privateKeyPem === undefined) !== (publicKeyPem === undefined)) {
    throw new ConfigError('JWT_PRIVATE_KEY and JWT_PUBLIC_KEY must be set together');
  }
  const previous = readOptional(env, 'JWT_PREVIOUS_PUBLIC_KEYS');
  return {
    privateKeyPem: privateKeyPem?.replace(/\\n/g, '\n'),
    publicKeyPem: publicKeyPem?.replace(/\\n/g, '\n'),
    previousPublicKeyPems: previous
      ? previous
          .replace(/\\n/g, '\n')
          .split(/(?=-----BEGIN PUBLIC KEY-----)/)
          .map((pem) => pem.trim())
          .filter(Boolean)
      : [],
    issuer: readString(env, 'JWT_ISSUER', publicUrl),
    audience: readString(env, 'JWT_AUDIENCE', 'delivery-platform-api'),
    accessTokenTtlSeconds: readInt(env, 'ACCESS_TOKEN_TTL_SECONDS', 900, 60, 3600),
  };
}

/** Entry points call this once; everything else receives the Config object. */
export function configFromProcess(): Config {
  return loadConfig(process.env);
}

/**
 * What every API and worker process of a split deployment must share (docs/operations.md): left unset, each process
 * would generate its own keys (tokens failing across processes, sealed values unreadable) and write its local address
 * into Applications. The embedded `npm start` generates them instead.
 */
export const SPLIT_MODE_SETTINGS = [
  'JWT_PRIVATE_KEY',
  'JWT_PUBLIC_KEY',
  'MFA_ENCRYPTION_KEY',
  'PUBLIC_URL',
  // The default (DATA_DIR/git) is each process's own folder: a split process names the shared volume (issue 43, H2).
  'GIT_REPOSITORIES_DIR',
] as const;

/** The configuration of `serve api|worker`: refused, naming each missing setting, without the shared ones. */
export function splitModeConfig(env: Env): Config {
  const missing = SPLIT_MODE_SETTINGS.filter((name) => readOptional(env, name) === undefined);
  if (missing.length > 0) {
    throw new ConfigError(`split mode needs the shared settings ${missing.join(', ')} (docs/operations.md)`);
  }
  return loadConfig({ SHUTDOWN_DRAIN_DELAY: '5s', ...env });
}

export function splitModeConfigFromProcess(): Config {
  return splitModeConfig(process.env);
}

/** Lets entry points report a bad setting as one line instead of a stack trace. */
export function exitOnConfigError(err: unknown): never {
  if (err instanceof ConfigError) {
    process.stderr.write(`configuration error: ${err.message}\n`);
    process.exit(78);
  }
  throw err;
}
