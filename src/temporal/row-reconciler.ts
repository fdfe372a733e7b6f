import { errorFields, type Logger } from '../logging/logger';

/**
 * Starts the workflows that rows owned by workflows (invitations, releases) are missing: once when the worker starts,
 * then every `intervalMs`. A request whose process died between the row's commit and the workflow start is thus
 * completed within one interval; starting is idempotent (business id, USE_EXISTING), so racing the request or another
 * worker's reconciler is harmless.
 */
export function startRowReconciler(
  what: string,
  reconcile: () => Promise<number>,
  intervalMs: number,
  log: Logger,
): { stop(): void } {
  const run = () =>
    reconcile().then(
      (started) => started > 0 && log.info(`${what} workflows started by the reconciler`, { started }),
      (err: unknown) => log.warn(`${what} reconciliation failed`, errorFields(err)),
    );
  void run();
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
