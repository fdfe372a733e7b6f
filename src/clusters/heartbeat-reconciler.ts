import { errorFields, type Logger } from '../logging/logger';
import type { AgentHub } from './agent-hub';

/**
 * Every `intervalMs` in the worker: restarts the heartbeat workflow of Connected clusters that have been silent for two
 * windows (see `AgentHub.reconcileSilent`), so a workflow terminated by hand cannot leave a cluster Connected forever.
 */
export function startHeartbeatReconciler(
  hub: Pick<AgentHub, 'reconcileSilent'>,
  intervalMs: number,
  log: Logger,
): { stop(): void } {
  const run = () =>
    hub.reconcileSilent().then(
      (signalled) => signalled > 0 && log.info('silent clusters handed to their heartbeat workflow', { signalled }),
      (err: unknown) => log.warn('heartbeat reconciliation failed', errorFields(err)),
    );
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
