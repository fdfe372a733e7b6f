import { randomUUID } from 'node:crypto';
import { WorkflowIdConflictPolicy } from '@temporalio/client';
import { taskQueue } from '../../../src/temporal/definitions';
import { proofProgressQuery, type ProofResult } from '../../../src/diagnostics/proof-workflow-contract';
import { exited, spawnScript } from '../../helpers/child-process';
import { eventually, freePort } from '../../helpers/net';
import { deploymentEnv } from '../../helpers/platform-process';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
});
afterAll(() => platform.close());

function startWorkerProcess(extra: Record<string, string> = {}) {
  return spawnScript('scripts/serve.ts', ['worker'], deploymentEnv(platform, extra));
}

describe('proof workflow across a worker crash', () => {
  it('completes after the worker process is SIGKILLed mid-run and another one starts', async () => {
    const first = startWorkerProcess();
    const workflowId = `proof-${randomUUID()}`;
    const handle = await platform.services.temporal.workflow.start('proofWorkflow', {
      taskQueue: taskQueue(platform.config.temporal.taskQueuePrefix, 'platform'),
      workflowId,
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      args: [{ runId: workflowId, organizationId: null, steps: 3, stepDelayMs: 1500 }],
    });
    // Wait until the first worker has made durable progress, then kill it without any chance to clean up.
    await eventually(async () => (await handle.query(proofProgressQuery)) >= 1, 40_000, 'first step');
    first.kill('SIGKILL');
    expect(await exited(first)).toBe('SIGKILL');

    const metricsPort = await freePort();
    const second = startWorkerProcess({ WORKER_METRICS_PORT: String(metricsPort) });
    try {
      const result = (await handle.result()) as ProofResult;
      expect(result.stepsCompleted).toBe(3);
      const rows = await platform.services
        .db('audit_log')
        .where({ workflow_id: workflowId, action: 'system.proof.complete' });
      expect(rows).toHaveLength(1);
      expect(rows[0].id).toBe(result.auditEntryId);
      // A worker-only process exposes its own metrics.
      const metrics = await (
        await fetch(`http://127.0.0.1:${metricsPort}/metrics`).catch((e: unknown) => {
          throw new Error(`${String(e)}: ${second.output()}`);
        })
      ).text();
      expect(metrics).toContain('# TYPE temporal_activity_failures_total counter');
      expect(metrics).toContain('process_cpu_user_seconds_total');
    } finally {
      second.kill('SIGTERM');
      await exited(second);
    }
  }, 120_000);

  it('returns the running workflow for a retried start with the same business id', async () => {
    const workflowId = `proof-${randomUUID()}`;
    const options = {
      taskQueue: taskQueue(platform.config.temporal.taskQueuePrefix, 'platform'),
      workflowId,
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      args: [{ runId: workflowId, organizationId: null, steps: 1, stepDelayMs: 10 }],
    };
    const a = await platform.services.temporal.workflow.start('proofWorkflow', options);
    const b = await platform.services.temporal.workflow.start('proofWorkflow', options);
    expect(b.firstExecutionRunId).toBe(a.firstExecutionRunId);
    await platform.services.temporal.workflow.getHandle(workflowId).terminate('test done');
  });
});
