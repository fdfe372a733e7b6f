import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../../src/paths';
import { compiledScript } from './built-dist';

/**
 * The entry points operators run compiled (`npm run api|worker` is `node dist/scripts/serve.js`, `npm start` ends in
 * `node dist/scripts/start.js`): run from dist/ here too, built once per run (test/helpers/built-dist.ts). Loading the
 * compiled tree costs a process about 2 CPU-seconds where tsx's loader costs 4, and the crash, multi-process,
 * self-check and embedded-start tests start dozens of them.
 */
const COMPILED_IN_PRODUCTION = new Set(['scripts/serve.ts', 'scripts/start.ts']);

/**
 * Runs one of the project's TypeScript entry points as a real child process, the way operators run them: compiled, or
 * with tsx as a loader in one process: the `tsx` command would put a wrapper in between, and a SIGKILL sent to the
 * wrapper would leave the real process running.
 */
export function spawnScript(
  script: string,
  args: string[],
  env: Record<string, string>,
  options: { ownProcessGroup?: boolean; wrapper?: string[] } = {},
): ChildProcess & { output: () => string } {
  const wrapper = options.wrapper ?? [];
  const entry = COMPILED_IN_PRODUCTION.has(script)
    ? [compiledScript(script)]
    : ['--import', 'tsx', path.join(repoRoot(), script)];
  const command = [...wrapper, process.execPath, ...entry, ...args];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: repoRoot(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // As a terminal runs a command: its own (foreground) process group, which a Ctrl-C reaches as a whole. A wrapper
    // (faketime) forks the process and passes on no signal: it too runs in its own group, stopped with killGroup.
    detached: (options.ownProcessGroup ?? false) || wrapper.length > 0,
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  return Object.assign(child, { output: () => output });
}

/** Resolves with the exit code (or the signal name) once the child has exited. */
export function exited(child: ChildProcess): Promise<number | string> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  if (child.signalCode !== null) return Promise.resolve(child.signalCode);
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
}

export async function runScript(script: string, args: string[], env: Record<string, string>) {
  const child = spawnScript(script, args, env);
  const code = await exited(child);
  return { code, output: child.output() };
}

/** Kills a child that is still running (a test's cleanup after a failure left it alive) and waits for its exit. */
export async function killIfRunning(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const done = exited(child);
  child.kill('SIGKILL');
  await done;
}

/** Stops a child started with a wrapper, and the process the wrapper forked, by their process group. */
export async function killGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const done = exited(child);
  process.kill(-child.pid, 'SIGKILL');
  await done;
}
