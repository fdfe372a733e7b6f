import type { AuditService } from '../audit/audit-service';
import type { WebhooksConfig } from '../config/webhooks';
import { REPLAY_WINDOW_MS } from '../config/webhooks';
import type { Db } from '../db/knex';
import type { CommitClient } from '../gitops/commit-client';
import type { SecretBox } from '../identity/mfa/secret-box';
import type { ProjectService } from '../projects/project-service';
import type { ReleaseService } from '../releases/release-service';
import type { PromotionService } from '../promotions/promotion-service';
import type { GovernanceGate } from '../governance/governance-verdict';
import { createControllerWebhookService, type ControllerWebhookService } from './controller-webhook-service';
import { createImageCommitBatcher } from './image-commit-batcher';
import { createImageUpdateService, type ImageUpdateService } from './image-update-service';
import { createRequestPurger } from './request-purger';
import { createWebhookSettingsService, type WebhookSettingsService } from './webhook-settings-service';

export interface WebhookDomain {
  settings: WebhookSettingsService;
  imageUpdates: ImageUpdateService;
  controller: ControllerWebhookService;
}

/** Inbound webhooks (docs/webhooks.md): project settings, the image-update webhook, the controller webhook. */
export function createWebhookDomain(deps: {
  db: Db;
  audit: AuditService;
  secrets: SecretBox;
  projects: Pick<ProjectService, 'projectOf'>;
  releases: Pick<ReleaseService, 'create' | 'reportSync'>;
  promotions: Pick<PromotionService, 'waitingFor' | 'reportSync' | 'sourceReported'>;
  governance: GovernanceGate;
  commit: CommitClient;
  config: WebhooksConfig;
}): WebhookDomain {
  const { db, audit, secrets, config } = deps;
  const purge = createRequestPurger(db);
  return {
    settings: createWebhookSettingsService({
      db,
      audit,
      secrets,
      projects: deps.projects,
      secretOverlapMs: config.secretOverlapMs,
    }),
    imageUpdates: createImageUpdateService({
      db,
      secrets,
      releases: deps.releases,
      batcher: createImageCommitBatcher(deps.commit),
      governance: deps.governance,
      replayWindowMs: REPLAY_WINDOW_MS,
      commitWaitMs: config.commitWaitMs,
      purge,
    }),
    controller: createControllerWebhookService({
      db,
      audit,
      releases: deps.releases,
      promotions: deps.promotions,
      projects: deps.projects,
      replayWindowMs: REPLAY_WINDOW_MS,
      tokenOverlapMs: config.secretOverlapMs,
      purge,
    }),
  };
}
