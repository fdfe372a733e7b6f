import type { Client } from '@temporalio/client';
import { closeObjectReaders } from '../git/object-reader';
import { createAuditService, type AuditService } from '../audit/audit-service';
import type { Config } from '../config';
import { createCrdService, type CrdService } from '../crds/crd-service';
import { createDb, type Db } from '../db/knex';
import { migrationsCurrent } from '../db/migrate';
import { createMetrics, type Metrics } from '../http/metrics';
import { createLookupMisses, type LookupMisses } from '../iam/lookup-misses';
import { createSecretBox, loadMfaKey, type SecretBox } from '../identity/mfa/secret-box';
import { createReadiness, type Readiness } from '../http/readiness';
import { createLogger, type Logger } from '../logging/logger';
import { createMailer, type Mailer } from '../mail/mailer';
import { createRateLimiter, sweepExpiredCounters, type RateLimiter } from '../rate-limit/fixed-window-limiter';
import { connectClient } from '../temporal/connection';
import { createWorkflowStarter, type WorkflowStarter } from '../temporal/start-workflow';
import { slugLookup } from '../temporal/slug-lookup';
import { ValidationEngine } from '../validation';
import { createDomainServices, type DomainServices } from './domain-services';
import { createPgNotifications, type PgNotifications } from '../db/pg-notifications';
import { configuredSigningKeys } from '../identity/configured-signing-keys';
import type { SigningKeys } from '../identity/signing-keys';
import { keyCanaryCheck } from '../identity/key-canary';
import { clockSkewCheck } from './clock-skew-check';
import { temporalNamespaceCheck } from '../temporal/namespace-check';

/** Where the running platform finds PostgreSQL and Temporal (embedded or external). */
export interface Endpoints {
  databaseUrl: string;
  temporalAddress: string;
}

/** What every process role needs: storage, audit, Temporal, mail, metrics and the validation engine. */
export interface CoreServices {
  config: Config;
  endpoints: Endpoints;
  log: Logger;
  db: Db;
  metrics: Metrics;
  audit: AuditService;
  temporal: Client;
  /** The one way workflows are started (business ids, USE_EXISTING, the configured task queue prefix). */
  workflows: WorkflowStarter;
  readiness: Readiness;
  /** Outgoing mail: SMTP when SMTP_URL is set, else .eml files under DATA_DIR/mail. */
  mailer: Mailer;
  /** Fixed-window counters in PostgreSQL shared by every replica (invitation sends, lookups that miss). */
  limiter: RateLimiter;
  /** AES-256-GCM for secrets at rest (TOTP seeds, invitation tokens awaiting their mail), MFA_ENCRYPTION_KEY. */
  secrets: SecretBox;
  /** The JWT keys (JWT_PRIVATE_KEY, JWT_PUBLIC_KEY): the API's tokens, and every process's key canary check. */
  signingKeys: SigningKeys;
  /** Identifier lookups that found nothing in the caller's organization: rate limited, foreign ones logged. */
  misses: LookupMisses;
  /** Kubernetes manifest validation; its schema registry loads in the background (503 and /readyz until then). */
  validation: ValidationEngine;
  /** CustomResourceDefinitions registered per organization (the validation engine reads them). */
  crds: CrdService;
  /** PostgreSQL LISTEN/NOTIFY for the process, on one connection opened by the first subscriber. */
  pgNotifications: PgNotifications;
}

/** Core plus the domain services: what the worker builds (HTTP-only parts live in api-services.ts). */
export type Services = CoreServices & DomainServices;

/**
 * /readyz: the engines this process needs, and the start-up self-checks (issue 43, M2) that prove its settings agree
 * with the deployment's (keys, clock, Temporal namespace; the bucket and the Git volume add theirs in their modules).
 */
function readinessOf(deps: {
  config: Config;
  db: Db;
  temporal: Client;
  validation: ValidationEngine;
  secrets: SecretBox;
  signingKeys: SigningKeys;
}): Readiness {
  const { config, db, temporal, validation } = deps;
  const readiness = createReadiness();
  readiness.add({
    name: 'postgres',
    check: async () => {
      await db.raw('SELECT 1');
      return null;
    },
  });
  readiness.add({
    name: 'migrations',
    check: async () => ((await migrationsCurrent(db)) ? null : 'database migrations are not applied'),
  });
  readiness.add({
    name: 'temporal',
    check: async () => {
      // A deadline ends the call (and the client's retries of it) with the probe, so an outage leaves none running.
      await temporal.connection.withDeadline(Date.now() + 2000, () =>
        temporal.connection.workflowService.getSystemInfo({}),
      );
      return null;
    },
  });
  readiness.add(validation.readinessCheck());
  readiness.add(keyCanaryCheck({ db, secrets: deps.secrets, keys: deps.signingKeys }));
  readiness.add(clockSkewCheck(db, config.clockSkewMaxMs));
  readiness.add(temporalNamespaceCheck(temporal, config.temporal.namespace));
  return readiness;
}

/** The composition root of every process: each service is built once here and handed to routes and activities. */
export async function createServices(config: Config, endpoints: Endpoints, log?: Logger): Promise<Services> {
  const logger = log ?? createLogger(config.logLevel);
  const db = createDb(endpoints.databaseUrl, config.databasePoolMax, logger);
  const temporal = await connectClient(config.temporal, endpoints.temporalAddress);
  const metrics = createMetrics();
  const audit = createAuditService(db);
  const limiter = createRateLimiter(db, {
    sweep: () => sweepExpiredCounters(db),
    sweepEvery: 500,
    onError: (err) => logger.warn('rate counter sweep failed', { err: String(err) }),
  });
  const validation = new ValidationEngine();
  const secrets = createSecretBox(loadMfaKey(config.identity.mfaKey, config.dataDir));
  const signingKeys = await configuredSigningKeys(config);
  validation.init().catch((err: unknown) => logger.error('K8s schema registry failed to load', { err: String(err) }));
  const core: CoreServices = {
    config,
    endpoints,
    log: logger,
    db,
    metrics,
    audit,
    temporal,
    workflows: createWorkflowStarter(temporal, config.temporal.taskQueuePrefix, metrics, slugLookup(db)),
    readiness: readinessOf({ config, db, temporal, validation, secrets, signingKeys }),
    mailer: createMailer(config.identity.mail, logger),
    limiter,
    secrets,
    signingKeys,
    misses: createLookupMisses({
      limiter,
      log: logger,
      denials: metrics.crossOrgDenials,
      limit: config.orgs.lookupMissesPerCaller,
      windowMs: config.orgs.lookupMissWindowMs,
    }),
    validation,
    crds: createCrdService(db, audit, validation),
    pgNotifications: createPgNotifications({ databaseUrl: endpoints.databaseUrl, log: logger }),
  };
  return { ...core, ...createDomainServices(core) };
}

export async function closeServices(services: CoreServices & { standing?: { close(): Promise<void> } }) {
  closeObjectReaders(services.config.gitops.repositoriesDir);
  await services.standing?.close();
  await services.pgNotifications.close();
  await services.mailer.close();
  await services.temporal.connection.close();
  await services.db.destroy();
}
