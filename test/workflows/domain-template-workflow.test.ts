import path from 'node:path';
import { exampleItemWorkflowId } from '../../src/domain-template/example-workflow-contract';
import { exampleItemWorkflow } from '../../workflows/example-item';
import { timeSkippingWorker } from '../helpers/time-skipping';
import { historyKeeper } from '../helpers/workflow-histories';

/**
 * The template's workflow (workflows/example-item.ts, bundled alone: no module claims it) adds its item through its
 * activity. Its history is the replay fixture `npm run new-domain` writes for a new domain
 * (test/workflows/domain-template/example-item.history.json): re-record it with UPDATE_WORKFLOW_HISTORIES=1 when the
 * workflow's steps change.
 */
const ITEM_ID = 'e0000000-0000-4000-8000-000000000001';
const added = { id: ITEM_ID, name: 'first', createdAt: '2026-11-30T00:00:00.000Z' };
const worker = timeSkippingWorker(require.resolve('../../workflows/example-item'), {
  addExampleItem: async () => added,
});
const keep = historyKeeper(path.join(__dirname, 'domain-template'), 'UPDATE_WORKFLOW_HISTORIES');

it('adds its item through its activity and answers it', async () => {
  const handle = await worker.env.client.workflow.start(exampleItemWorkflow, {
    taskQueue: worker.taskQueue,
    workflowId: exampleItemWorkflowId(ITEM_ID),
    args: [{ organizationId: 'a0000000-0000-4000-8000-000000000001', itemId: ITEM_ID, name: 'first' }],
  });
  expect(await handle.result()).toEqual(added);
  await keep('example-item.history', handle);
});
