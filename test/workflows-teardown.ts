import fs from 'node:fs';
import path from 'node:path';
import { WORKFLOWS_BUNDLE_ENV } from './helpers/harness-state';

/** Removes the workflows bundle test/workflows-setup.ts built for the run. */
export default function workflowsTeardown(): void {
  const file = process.env[WORKFLOWS_BUNDLE_ENV];
  if (file) fs.rmSync(path.dirname(file), { recursive: true, force: true });
}
