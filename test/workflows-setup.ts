import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { locateTimeSkippingServer } from '../src/embedded/temporal-cli';
import { repoRoot } from '../src/paths';
import { WORKFLOWS_BUNDLE_ENV } from './helpers/harness-state';
import { bundleToFile } from './helpers/time-skipping';

/**
 * The workflows tier's one set-up, before any test worker starts: finds the time-skipping server, installing it under
 * .tools/ on a fresh machine, so parallel test workers never race to install it; and bundles `workflows/` once for the
 * run (each test file used to bundle it again: seconds of CPU a file), handed to the files through
 * PLATFORM_TEST_WORKFLOWS_BUNDLE. test/workflows-teardown.ts removes it.
 */
export default async function workflowsSetup(): Promise<void> {
  locateTimeSkippingServer(repoRoot(), (process.env.PATH ?? '').split(path.delimiter), (m) =>
    process.stderr.write(`${m}\n`),
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-workflows-'));
  const file = path.join(dir, 'workflow-bundle.js');
  await bundleToFile(require.resolve('../workflows'), file);
  process.env[WORKFLOWS_BUNDLE_ENV] = file;
}
