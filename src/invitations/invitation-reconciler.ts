import { errorFields, type Logger } from '../logging/logger';
import type { InvitationService } from './invitation-service';

/**
 * Starts the workflows pending invitation rows are missing: once when the worker starts, then every `intervalMs`.
 * A send whose process died between the row's commit and the workflow start is thus completed (workflow and mail)
 * within one interval; starting is idempotent, so racing the sender or another worker's reconciler is harmless.
 */
export function startInvitationReconciler(
  invitations: Pick<InvitationService, 'reconcile'>,
  intervalMs: number,
  log: Logger,
): { stop(): void } {
  const run = () =>
    invitations.reconcile().then(
      (started) => started > 0 && log.info('invitation workflows started by the reconciler', { started }),
      (err: unknown) => log.warn('invitation reconciliation failed', errorFields(err)),
    );
  void run();
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
