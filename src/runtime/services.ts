import path from 'node:path';
import type { Client } from '@temporalio/client';
import { createAuditService, type AuditService } from '../audit/audit-service';
import type { Config } from '../config';
import { createDb, type Db } from '../db/knex';
import { migrationsCurrent } from '../db/migrate';
import { createMetrics, type Metrics } from '../http/metrics';
import { createReadiness, type Readiness } from '../http/readiness';
import { loadSchemaValidator, type SchemaValidator } from '../http/schema-validator';
import { ACTION_ROLES } from '../iam/action-roles';
import { createAuthorizationChain, type AuthorizationChain } from '../iam/authorization-chain';
import { createAccessTokens, type AccessTokens } from '../identity/access-token';
import { loadOrCreateKeyFile, signingKeysFromPem } from '../identity/signing-keys';
import { createLogger, type Logger } from '../logging/logger';
import { createMailer, type Mailer } from '../mail/mailer';
import { createPlanGate, type PlanGate } from '../plans/plan-gate';
import { connectClient } from '../temporal/connection';
import { createCrdService, type CrdService } from '../crds/crd-service';
import { ValidationEngine } from '../validation';
import { createRepositoryStore, type RepositoryStore } from '../gitops/repository-store';
import { createProjectDomain, type ProjectDomain } from '../projects/project-domain';
import { createGitopsDomain, type GitopsDomain } from '../gitops/gitops-domain';

/** Where the running platform finds PostgreSQL and Temporal (embedded or external). */
export interface Endpoints {
  databaseUrl: string;
  temporalAddress: string;
}

/** Everything domain modules and routes may depend on, built once at the composition root. */
export interface Services {
  config: Config;
  endpoints: Endpoints;
  log: Logger;
  db: Db;
  metrics: Metrics;
  audit: AuditService;
  temporal: Client;
  schemas: SchemaValidator;
  readiness: Readiness;
  accessTokens: AccessTokens;
  /** Outgoing mail: SMTP when SMTP_URL is set, else .eml files under DATA_DIR/mail. */
  mailer: Mailer;
  /** Organization role -> resource grants -> approval policy hooks, for every organization route (src/iam). */
  authorization: AuthorizationChain;
  /** Plan tiers: `plans.require(orgId, feature)` answers 403 naming the plan needed. */
  plans: PlanGate;
  /** Kubernetes manifest validation; its schema registry loads in the background (503 and /readyz until then). */
  validation: ValidationEngine;
  /** CustomResourceDefinitions registered per organization. */
  crds: CrdService;
  /** Where hosted Git repositories live (src/gitops/repository-store.ts). */
  repositories: RepositoryStore;
  /** Projects with their environments, tenants and workloads. */
  projects: ProjectDomain;
  /** Files, delivery, compare and bulk update over the hosted repositories (writes through the `git` queue). */
  gitops: GitopsDomain;
}

async function accessTokensFor(config: Config): Promise<AccessTokens> {
  const pems =
    config.jwt.privateKeyPem && config.jwt.publicKeyPem
      ? { privatePem: config.jwt.privateKeyPem, publicPem: config.jwt.publicKeyPem }
      : await loadOrCreateKeyFile(path.join(config.dataDir, 'secrets', 'jwt-signing-key.json'));
  const keys = await signingKeysFromPem(pems.privatePem, pems.publicPem, config.jwt.previousPublicKeyPems);
  return createAccessTokens(keys, config.jwt.issuer, config.jwt.audience, config.jwt.accessTokenTtlSeconds);
}

export async function createServices(config: Config, endpoints: Endpoints, log?: Logger): Promise<Services> {
  const logger = log ?? createLogger(config.logLevel);
  const db = createDb(endpoints.databaseUrl, config.databasePoolMax, logger);
  const temporal = await connectClient(config.temporal, endpoints.temporalAddress);
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
      await temporal.connection.workflowService.getSystemInfo({});
      return null;
    },
  });
  const audit = createAuditService(db);
  const validation = new ValidationEngine();
  readiness.add(validation.readinessCheck());
  validation.init().catch((err: unknown) => logger.error('K8s schema registry failed to load', { err: String(err) }));
  const repositories = createRepositoryStore(config.dataDir);
  const projects = createProjectDomain({ db, audit, repositories, publicUrl: config.publicUrl });
  const metrics = createMetrics();
  return {
    config,
    endpoints,
    log: logger,
    db,
    metrics,
    audit,
    temporal,
    schemas: loadSchemaValidator(),
    readiness,
    accessTokens: await accessTokensFor(config),
    mailer: createMailer(config.identity.mail, logger),
    authorization: createAuthorizationChain(db, ACTION_ROLES),
    plans: createPlanGate(db),
    validation,
    crds: createCrdService(db, audit, validation),
    repositories,
    projects,
    gitops: createGitopsDomain({
      temporal,
      config,
      metrics,
      db,
      projects: projects.projects,
      repositories,
      validation,
    }),
  };
}

export async function closeServices(services: Services): Promise<void> {
  await services.mailer.close();
  await services.temporal.connection.close();
  await services.db.destroy();
}
