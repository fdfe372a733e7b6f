import type { AuditService } from '../audit/audit-service';
import type { WebhooksConfig } from '../config/webhooks';
import { REPLAY_WINDOW_MS } from '../config/webhooks';
import type { Db } from '../db/knex';
import type { SecretBox } from '../identity/mfa/secret-box';
import type { ProjectService } from '../projects/project-service';
import type { ReleaseService } from '../releases/release-service';
import type { PromotionService } from '../promotions/promotion-service';
import type { RolloutService } from '../rollouts/rollout-service';
import type { GovernanceGate } from '../governance/governance-verdict';
import type { WorkflowStarter } from '../temporal/start-workflow';
import { createControllerWebhookService, type ControllerWebhookService } from './controller-webhook-service';
import type { PgNotifications } from '../db/pg-notifications';
import type { CommitPathDeps } from '../gitops/commit-path';
import type { Logger } from '../logging/logger';
import { createDirectImageCommits } from './direct-image-commits';
import { createImageUpdateService, type ImageUpdateService } from './image-update-service';
import { createRequestPurger } from './request-purger';
import { createWebhookSettingsService, type WebhookSettingsService } from './webhook-settings-service';

export interface WebhookDomain {
  settings: WebhookSettingsService;
  imageUpdates: ImageUpdateService;
  controller: ControllerWebhookService;
  /** Hands over image updates and tells controller reports that were recorded this long ago but not handed over. */
  reconcile(olderThanMs: number): Promise<number>;
}

/** Inbound webhooks (docs/webhooks.md): project settings, the image-update webhook, the controller webhook. */
export function createWebhookDomain(deps: {
  db: Db;
  audit: AuditService;
  secrets: SecretBox;
  projects: Pick<ProjectService, 'projectOf'>;
  releases: Pick<ReleaseService, 'create' | 'reportSync'>;
  promotions: Pick<PromotionService, 'waitingFor' | 'reportSync' | 'sourceReported'>;
  rollouts: Pick<RolloutService, 'forImageUpdate'>;
  governance: GovernanceGate;
  workflows: Pick<WorkflowStarter, 'signalWithStart' | 'start'>;
  /** The `git` task queue, where the image-update workflow's commits run. */
  gitTaskQueue: string;
  /** How long the image-update workflow's commits wait out a Git storage outage (GIT_COMMIT_PATIENCE). */
  commitPatienceMs: number;
  /** Tells waiting webhook requests that their batch finished (request-outcome-watcher.ts). */
  pgNotifications: PgNotifications;
  /** This process's commit path: image updates commit directly when `config.directCommit`. */
  commitPath: CommitPathDeps;
  log: Logger;
  config: WebhooksConfig;
}): WebhookDomain {
  const { db, audit, secrets, config } = deps;
  const purge = createRequestPurger(db);
  const imageUpdates = createImageUpdateService({
    db,
    secrets,
    releases: deps.releases,
    rollouts: deps.rollouts,
    workflows: deps.workflows,
    gitTaskQueue: deps.gitTaskQueue,
    commitPatienceMs: deps.commitPatienceMs,
    direct: config.directCommit
      ? createDirectImageCommits({
          commitPath: deps.commitPath,
          workflows: deps.workflows,
          gitTaskQueue: deps.gitTaskQueue,
          log: deps.log,
        })
      : null,
    governance: deps.governance,
    replayWindowMs: REPLAY_WINDOW_MS,
    commitWaitMs: config.commitWaitMs,
    pgNotifications: deps.pgNotifications,
    purge,
  });
  const controller = createControllerWebhookService({
    db,
    audit,
    releases: deps.releases,
    promotions: deps.promotions,
    projects: deps.projects,
    replayWindowMs: REPLAY_WINDOW_MS,
    tokenOverlapMs: config.secretOverlapMs,
    purge,
  });
  return {
    settings: createWebhookSettingsService({
      db,
      audit,
      secrets,
      projects: deps.projects,
      secretOverlapMs: config.secretOverlapMs,
    }),
    imageUpdates,
    controller,
    reconcile: async (olderThanMs) =>
      (await imageUpdates.handOverStaged(olderThanMs)) + (await controller.tellUntold(olderThanMs)),
  };
}
