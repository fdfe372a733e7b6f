import path from 'node:path';
import { locateTimeSkippingServer } from '../src/embedded/temporal-cli';
import { repoRoot } from '../src/paths';

/**
 * The workflows tier's one set-up: finds the time-skipping server, installing it under .tools/ on a fresh machine,
 * once for the run, so parallel test workers never race to install it.
 */
export default function workflowsSetup(): void {
  locateTimeSkippingServer(repoRoot(), (process.env.PATH ?? '').split(path.delimiter), (m) =>
    process.stderr.write(`${m}\n`),
  );
}
