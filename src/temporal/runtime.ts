import { DefaultLogger, Runtime, type LogEntry } from '@temporalio/worker';
import { createLogger, type Logger } from '../logging/logger';

let runtimeInstalled = false;

/**
 * The SDK warns that the `git` queue's worker has no workflows: by design, that queue runs only the commit path's
 * activities, so the warning tells an operator nothing to act on.
 */
function expected(entry: LogEntry): boolean {
  const queue = entry.meta?.taskQueue;
  return entry.message.startsWith('No workflows registered') && typeof queue === 'string' && queue.endsWith('git');
}

/**
 * Our own signal handling decides the shutdown order, so the SDK must not react to signals by itself. The SDK's
 * warnings and errors go through our logger (one format on the output), less the expected ones.
 */
export function installTemporalRuntime(log?: Logger): void {
  if (runtimeInstalled) return;
  const sdk = (log ?? createLogger('warn')).child({ component: 'temporal-sdk' });
  const logger = new DefaultLogger('WARN', (entry) => {
    if (expected(entry)) return;
    if (entry.level === 'ERROR') sdk.error(entry.message, { ...entry.meta });
    else sdk.warn(entry.message, { ...entry.meta });
  });
  Runtime.install({ shutdownSignals: [], logger });
  runtimeInstalled = true;
}
