import type { WorkflowStarter } from '../temporal/start-workflow';
import { notificationDispatchWorkflowType } from './notification-workflow-contract';
import type { NotificationsConfig } from '../config/notifications';
import { dispatcherWorkflowId } from './notification-workflow-contract';
import type { DispatcherPort } from './channel-service';

/** Turns before continue-as-new: each turn is two to three history events plus the deliveries it starts. */
const TURNS_PER_RUN = 200;

/**
 * Starts an organization's dispatcher (USE_EXISTING: a running one is kept). Called after a channel, preference or
 * policy is saved, and by the worker's reconciler (dispatcher-reconciler.ts) for whatever a crash left unstarted.
 */
export function createDispatcherStarter(
  workflows: WorkflowStarter,
  config: Pick<NotificationsConfig, 'pollIntervalMs' | 'batchSize'>,
): DispatcherPort {
  return {
    async ensure(organizationId) {
      await workflows.start(notificationDispatchWorkflowType, {
        workflowId: dispatcherWorkflowId(organizationId),
        args: [
          {
            organizationId,
            pollIntervalMs: config.pollIntervalMs,
            batchSize: config.batchSize,
            turnsPerRun: TURNS_PER_RUN,
          },
        ],
        labels: { organizationId },
        summary: 'notification dispatcher',
      });
    },
  };
}
