import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../src/paths';
import { newestMtime as newest } from './newest-mtime';

/** Set to 1, global setup builds no web app (a run with no browser test and no served UI). */
export const WITHOUT_WEB_BUILD = 'PLATFORM_TEST_WITHOUT_WEB_BUILD';

/**
 * Builds the web app into dist/web when it is missing or older than its sources (web/, client/), as `npm run build`
 * does, so the API the tests start serves the current UI. Quiet when it is current.
 */
export async function ensureWebBuild(): Promise<void> {
  const root = repoRoot();
  const index = path.join(root, 'dist', 'web', 'index.html');
  const sources = Math.max(newest(path.join(root, 'web')), newest(path.join(root, 'client')));
  if (fs.existsSync(index) && fs.statSync(index).mtimeMs >= sources) return;
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  await quietly(process.execPath, [vite, 'build', '--config', 'web/vite.config.mts', '--logLevel', 'error']);
}

/** Installs Debian's chromium and skopeo when missing (scripts/ensure-test-tools.sh, apt-get; quiet and idempotent). */
export async function ensureTestTools(): Promise<void> {
  await quietly('bash', [path.join(repoRoot(), 'scripts', 'ensure-test-tools.sh')]);
}

/** Runs `command` in the repository, its output dropped and its errors shown; rejects naming it when it fails. */
export function quietly(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot(), stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${[command, ...args].join(' ')} exited with ${code}`)),
    );
  });
}
