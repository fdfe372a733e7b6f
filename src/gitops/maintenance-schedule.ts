import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { repositoryMaintenanceWorkflowType } from './git-workflow-contract';

/**
 * The Temporal schedule that maintains every hosted repository (`git gc --auto`) every `intervalMs`, skipping a run
 * while the previous one is still going. Created by each worker process at start (idempotent: an existing schedule
 * gets the current interval).
 */
export async function ensureMaintenanceSchedule(
  client: Client,
  opts: { prefix: string; workflowQueue: string; gitQueue: string; intervalMs: number },
): Promise<void> {
  const scheduleId = `${opts.prefix}git-maintenance`;
  const spec = { intervals: [{ every: opts.intervalMs }] };
  try {
    await client.schedule.create({
      scheduleId,
      spec,
      action: {
        type: 'startWorkflow',
        workflowType: repositoryMaintenanceWorkflowType.name,
        workflowId: `${opts.prefix}git-maintenance-all`,
        taskQueue: opts.workflowQueue,
        args: [{ taskQueue: opts.gitQueue, target: null }],
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, spec }));
  }
}
