import { WorkflowUpdateStage, type Client, type WorkflowHandle } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import { RUN_EVENT_CAP } from '../../workflows/lib/wait-until-clear';
import { untilCalled } from './held-activity';
import { lengthSeenByLastAnswer, runHistoryLengths } from './history-budget';

/**
 * A long run deciding to continue as new while a cancel is being accepted: waits for the stub activity held at the
 * cap (it pushed `heldEntry` to `calls`), sends the cancel Update (accepted, not answered), lets the held answer through,
 * and checks the run stayed one run whose workflow task took that answer at RUN_EVENT_CAP (the `activity`'s last
 * answer). Answers the cancel's result and the workflow's.
 */
export async function cancelAtRunCap<Req>(scene: {
  client: Client;
  handle: WorkflowHandle;
  calls: readonly string[];
  heldEntry: string;
  release: () => void;
  activity: string;
  cancel: UpdateDefinition<unknown, [Req]>;
  request: Req;
}): Promise<{ cancelled: unknown; result: unknown }> {
  const { handle } = scene;
  await untilCalled(scene.calls, scene.heldEntry, 60_000);
  const update = await handle.startUpdate(scene.cancel, {
    args: [scene.request],
    waitForStage: WorkflowUpdateStage.ACCEPTED,
  });
  scene.release();
  const cancelled = await update.result();
  const result = await handle.result();
  expect(await lengthSeenByLastAnswer(handle, scene.activity)).toBeGreaterThanOrEqual(RUN_EVENT_CAP);
  expect(await runHistoryLengths(scene.client, handle.workflowId)).toHaveLength(1);
  return { cancelled, result };
}
