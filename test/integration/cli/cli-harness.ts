import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../../src/paths';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The `delivery` command as a user runs it (bin/delivery.js in a child process), with its own config folder. */
export function cliRunner(server: string) {
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-cli-'));
  const bin = path.join(repoRoot(), 'bin', 'delivery.js');
  const run = (args: string[], opts: { stdin?: string; env?: Record<string, string> } = {}) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, DELIVERY_CONFIG_DIR: configDir, DELIVERY_SERVER: server, NO_COLOR: '1', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(opts.stdin ?? '');
    const done = new Promise<CliRun>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
    return Object.assign(done, { output: () => stdout + stderr });
  };
  return { run, configDir, close: () => fs.rmSync(configDir, { recursive: true, force: true }) };
}
