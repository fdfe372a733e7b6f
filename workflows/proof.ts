import { proxyActivities, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import type { createActivities } from '../activities';
import { proofProgressQuery, type ProofInput, type ProofResult } from '../src/diagnostics/proof-workflow-contract';

const { proofStep, recordProof } = proxyActivities<ReturnType<typeof createActivities>>({
  startToCloseTimeout: '30 seconds',
  heartbeatTimeout: '5 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '2 seconds' },
});

/**
 * Proves the path API -> Temporal -> worker -> activity -> PostgreSQL end to end: a few durable steps separated by
 * timers, then one audit entry. Killing the worker between steps must not lose progress.
 */
export async function proofWorkflow(input: ProofInput): Promise<ProofResult> {
  let completed = 0;
  setHandler(proofProgressQuery, () => completed);
  for (let step = 1; step <= input.steps; step += 1) {
    await proofStep({ runId: input.runId, step });
    completed = step;
    if (step < input.steps) await sleep(input.stepDelayMs);
  }
  const auditEntryId = await recordProof({
    runId: input.runId,
    organizationId: input.organizationId,
    workflowId: workflowInfo().workflowId,
    steps: completed,
  });
  return { runId: input.runId, stepsCompleted: completed, auditEntryId };
}

/** Returns at once: the floor of a workflow round trip through the server and a worker (bench/release). */
export async function pingWorkflow(): Promise<string> {
  return workflowInfo().workflowId;
}
