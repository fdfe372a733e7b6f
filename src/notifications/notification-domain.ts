import type { NotificationsConfig } from '../config/notifications';
import type { OrgDomainDeps } from '../iam/cross-org';
import type { SecretBox } from '../identity/mfa/secret-box';
import type { Mailer } from '../mail/mailer';
import { createSafeSender } from '../net/safe-http';
import type { PlanGate } from '../plans/plan-gate';
import type { ProjectService } from '../projects/project-service';
import type { WorkflowStarter } from '../temporal/start-workflow';
import { createChannelSender, type ChannelDeliver } from './channel-sender';
import { switchOffGoneChannel } from './channel-gone';
import { createChannelService, type ChannelService } from './channel-service';
import { createDispatcherStarter } from './dispatcher-starter';
import { reconcileDispatchers } from './dispatcher-reconciler';
import { createInboxService, type InboxService } from './inbox-service';
import { createEscalationService, type EscalationService } from './escalation-service';
import { createOrgMailer, type OrgMailer } from './org-mailer';
import { createSmtpService, type SmtpService } from './smtp-service';
import type { Client } from '@temporalio/client';
import type { RateLimiter } from '../rate-limit/fixed-window-limiter';

export interface NotificationDomain {
  channels: ChannelService;
  /** Each member's in-app notifications and preferences. */
  inbox: InboxService;
  /** Escalation policies and incidents (Pro and Enterprise). */
  escalations: EscalationService;
  /** Starts the dispatchers organizations are missing (the worker runs it periodically). */
  reconcileDispatchers(): Promise<number>;
  /** Sends one message to one channel (adapters, safe sender, delivery log): the API's test sends and the activities. */
  deliver: ChannelDeliver;
  /** Notification email: the organization's own relay when it set one, else the platform mailer. */
  mail: OrgMailer;
  /** The organization's SMTP settings (/api/v2/notifications/smtp). */
  smtp: SmtpService;
}

export interface NotificationDomainDeps extends OrgDomainDeps {
  secrets: SecretBox;
  mailer: Pick<Mailer, 'send'>;
  plans: PlanGate;
  projects: Pick<ProjectService, 'projectOf' | 'namedProjectOf'>;
  workflows: WorkflowStarter;
  temporal: Client;
  config: NotificationsConfig;
  limiter: RateLimiter;
}

export function createNotificationDomain(deps: NotificationDomainDeps): NotificationDomain {
  const send = createSafeSender(deps.config.outbound, deps.config.limits);
  const mail = createOrgMailer({ ...deps, outbound: deps.config.outbound, limits: deps.config.limits });
  const deliver = createChannelSender({
    db: deps.db,
    secrets: deps.secrets,
    mail,
    send,
    throttle: deps.config.throttle,
    onGone: switchOffGoneChannel(deps),
  });
  const dispatcher = createDispatcherStarter(deps.workflows, deps.config);
  return {
    deliver,
    mail,
    smtp: createSmtpService({ ...deps, outbound: deps.config.outbound, mail }),
    reconcileDispatchers: () => reconcileDispatchers(deps.db, dispatcher, 2 * deps.config.reconcileIntervalMs),
    inbox: createInboxService({ ...deps, dispatcher }),
    escalations: createEscalationService({ ...deps, dispatcher }),
    channels: createChannelService({
      ...deps,
      outbound: deps.config.outbound,
      deliver,
      dispatcher,
      maxAttempts: deps.config.maxAttempts,
      testSends: { limiter: deps.limiter, ...deps.config.testSends },
    }),
  };
}
