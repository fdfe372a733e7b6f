import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { createExampleItemActivities } from '../activities/example-item';
import type { ExampleItem } from '../src/domain-template/example-repository';
import type { ExampleItemInput } from '../src/domain-template/example-workflow-contract';

const { addExampleItem } = proxyActivities<ReturnType<typeof createExampleItemActivities>>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds' },
});

/**
 * Adds one example item, as `npm run new-domain` writes it (claimed by the domain's module): its steps are activities,
 * each change in one transaction with its audit entry. The domain's long-running steps (timers, Updates, calls out)
 * go here.
 */
export async function exampleItemWorkflow(input: ExampleItemInput): Promise<ExampleItem> {
  return addExampleItem({ ...input, workflowId: workflowInfo().workflowId });
}
