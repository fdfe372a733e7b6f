import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTE_DECLARATIONS } from '../temporal/definitions';

export interface DevServerOptions {
  cliPath: string;
  port: number;
  uiPort: number | null;
  /** The HTTP API and /metrics ports; random free ones when absent (the test harness's throwaway servers). */
  httpPort?: number;
  metricsPort?: number;
  namespace: string;
  /** SQLite file; null keeps everything in memory (tests). */
  dbFile: string | null;
  logFile?: string;
  startTimeoutMs?: number;
  /**
   * Run in a process group of its own, so a terminal's Ctrl-C (sent to the whole foreground group) reaches only the
   * platform, which stops the server after its workers (see src/embedded/postgres.ts for why the order matters).
   */
  ownProcessGroup?: boolean;
}

export interface DevServer {
  address: string;
  uiUrl: string | null;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Polls the frontend until it answers: the SDK's own 5 s wait is too short for a cold start. */
export async function waitForTemporal(address: string, timeoutMs: number, exited?: () => string | null): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    const died = exited?.();
    if (died) throw new Error(died);
    try {
      const connection = await Connection.connect({ address, connectTimeout: '1s' });
      try {
        await connection.workflowService.getSystemInfo({});
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      lastError = err instanceof Error ? err.message : String(err);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`Temporal at ${address} not ready after ${timeoutMs} ms: ${lastError}`);
}

export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--namespace',
    opts.namespace,
    '--log-level',
    'warn',
    '--dynamic-config-value',
    'frontend.enableUpdateWorkflowExecution=true',
    '--dynamic-config-value',
    'frontend.enableUpdateWorkflowExecutionAsyncAccepted=true',
    ...SEARCH_ATTRIBUTE_DECLARATIONS.flatMap((sa) => ['--search-attribute', `${sa.name}=${sa.type}`]),
    ...(opts.httpPort === undefined ? [] : ['--http-port', String(opts.httpPort)]),
    ...(opts.metricsPort === undefined ? [] : ['--metrics-port', String(opts.metricsPort)]),
    ...(opts.uiPort === null ? ['--headless'] : ['--ui-port', String(opts.uiPort)]),
    ...(opts.dbFile
      ? ['--db-filename', opts.dbFile, '--sqlite-pragma', 'journal_mode=WAL', '--sqlite-pragma', 'synchronous=NORMAL']
      : []),
  ];
  if (opts.dbFile) fs.mkdirSync(path.dirname(opts.dbFile), { recursive: true });
  const out = opts.logFile ? fs.openSync(opts.logFile, 'a') : 'ignore';
  const child = spawn(opts.cliPath, args, {
    stdio: ['ignore', out, out],
    detached: opts.ownProcessGroup ?? false,
  });
  let exitMessage: string | null = null;
  child.on('exit', (code, signal) => {
    exitMessage = `temporal dev server exited (${signal ?? code})${opts.logFile ? `; see ${opts.logFile}` : ''}`;
  });
  const address = `127.0.0.1:${opts.port}`;
  try {
    await waitForTemporal(address, opts.startTimeoutMs ?? 60_000, () => exitMessage);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return {
    address,
    uiUrl: opts.uiPort === null ? null : `http://127.0.0.1:${opts.uiPort}`,
    process: child,
    stop: () => stopChild(child),
  };
}

/** SIGTERM, then SIGKILL if the child has not exited within the grace time. */
export function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
