import type { AuditService } from '../src/audit/audit-service';
import type { Db } from '../src/db/knex';
import type { WorkflowStarter } from '../src/temporal/start-workflow';
import type { ChannelDeliver } from '../src/notifications/channel-sender';
import { deliverPlanned, planDispatch, readCursor } from '../src/notifications/dispatch-planner';
import { sendDigest } from '../src/notifications/digest-mail';
import type { EscalationService } from '../src/notifications/escalation-service';
import type { OrgMailer } from '../src/notifications/org-mailer';
import type {
  DeliveryOutcome,
  DigestItem,
  DispatchPlan,
  PlannedDelivery,
} from '../src/notifications/notification-workflow-contract';

export interface NotificationActivityDeps {
  db: Db;
  audit: AuditService;
  workflows: WorkflowStarter;
  notifications: {
    deliver: ChannelDeliver;
    mail: Pick<OrgMailer, 'send'>;
    escalations: Pick<EscalationService, 'startResolve'>;
  };
  config: { notifications: { limits: { totalTimeoutMs: number }; throttle: { maxWaitMs: number } } };
}

/** The outbox dispatcher's steps (workflows/notification-dispatch.ts). */
export function createNotificationActivities(deps: NotificationActivityDeps) {
  return {
    readDispatchCursor: (organizationId: string): Promise<number> => readCursor(deps.db, organizationId),
    planDispatch: (input: { organizationId: string; afterSeq: number; limit: number }): Promise<DispatchPlan> =>
      planDispatch({ ...deps, resolveIncident: deps.notifications.escalations.startResolve }, input, {
        totalTimeoutMs: deps.config.notifications.limits.totalTimeoutMs,
        throttleWaitMs: deps.config.notifications.throttle.maxWaitMs,
      }),
    deliverNotification: (delivery: PlannedDelivery): Promise<DeliveryOutcome> =>
      deliverPlanned({ db: deps.db, ...deps.notifications }, delivery),
    sendDigest: (input: {
      organizationId: string;
      userId: string;
      items: DigestItem[];
      omitted?: number;
    }): Promise<'sent' | 'skipped'> => sendDigest({ db: deps.db, mail: deps.notifications.mail }, input),
  };
}
