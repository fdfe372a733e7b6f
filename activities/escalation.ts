import type { AuditService } from '../src/audit/audit-service';
import type { Db } from '../src/db/knex';
import type { SecretBox } from '../src/identity/mfa/secret-box';
import type { OrgMailer } from '../src/notifications/org-mailer';
import type { ChannelDeliver } from '../src/notifications/channel-sender';
import { createEscalationNotifier } from '../src/notifications/escalation-notifier';
import { recordTransition } from '../src/notifications/incident-opener';
import type {
  EscalationTarget,
  IncidentActionRequest,
  IncidentInput,
} from '../src/notifications/notification-workflow-contract';

export interface EscalationActivityDeps {
  db: Db;
  audit: AuditService;
  secrets: SecretBox;
  notifications: { deliver: ChannelDeliver; mail: Pick<OrgMailer, 'send'> };
  config: { publicUrl: string };
}

/** The incident workflow's steps (workflows/escalation-incident.ts). */
export function createEscalationActivities(deps: EscalationActivityDeps) {
  const notifier = createEscalationNotifier({
    ...deps,
    deliver: deps.notifications.deliver,
    mail: deps.notifications.mail,
    publicUrl: deps.config.publicUrl,
  });
  return {
    notifyEscalationTier: (
      input: IncidentInput & { tierIndex: number; cycle: number; targets: EscalationTarget[] },
    ): Promise<void> => notifier.notifyTier(input),
    resolveIncidentTargets: (input: IncidentInput): Promise<void> => notifier.resolveTargets(input),
    recordIncidentTransition: (
      input: { incidentId: string; organizationId: string; to: 'acknowledged' | 'resolved' } & IncidentActionRequest,
    ): Promise<void> => recordTransition(deps, input),
  };
}
