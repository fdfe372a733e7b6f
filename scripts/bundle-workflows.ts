import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { PREBUILT_BUNDLE } from '../workers/create-worker';

/** Pre-bundles workflow code at build time so production workers skip webpack at start. */
async function main(): Promise<void> {
  const { code } = await bundleWorkflowCode({ workflowsPath: require.resolve('../workflows') });
  fs.mkdirSync(path.dirname(PREBUILT_BUNDLE), { recursive: true });
  fs.writeFileSync(PREBUILT_BUNDLE, code);
  process.stdout.write(`workflow bundle written to ${PREBUILT_BUNDLE} (${code.length} bytes)\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
