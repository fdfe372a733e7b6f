import type { Db } from '../db/knex';
import { organizationsWithEventsSince } from '../events/domain-event-repository';
import { errorFields, type Logger } from '../logging/logger';
import type { DispatcherPort } from './channel-service';

/** Organizations that need a dispatcher: those with channels, preferences or policies, and those with recent events. */
async function organizationsToDispatch(db: Db, since: Date): Promise<string[]> {
  const configured = (await db
    .select('organization_id')
    .from('notification_channels')
    .union((q) => void q.select('organization_id').from('notification_preferences'))
    .union((q) => void q.select('organization_id').from('escalation_policies'))) as { organization_id: string }[];
  return [
    ...new Set([...configured.map((r) => r.organization_id), ...(await organizationsWithEventsSince(db, since))]),
  ];
}

/**
 * Makes sure every organization that needs one has its outbox dispatcher (idempotent starts, USE_EXISTING): covers a
 * crash between a channel's commit and its dispatcher start, a dispatcher terminated by an operator, and organizations
 * whose first event needs in-app notifications before anyone configured anything. Returns the organizations checked.
 */
export async function reconcileDispatchers(db: Db, dispatcher: DispatcherPort, lookBackMs: number): Promise<number> {
  const orgs = await organizationsToDispatch(db, new Date(Date.now() - lookBackMs));
  for (const org of orgs) await dispatcher.ensure(org);
  return orgs.length;
}

/** Runs the reconciliation when the worker starts, then every `intervalMs` (NOTIFY_RECONCILE_INTERVAL). */
export function startDispatcherReconciler(
  reconcile: () => Promise<number>,
  intervalMs: number,
  log: Logger,
): { stop(): void } {
  const run = () =>
    reconcile().catch((err: unknown) => log.warn('notification dispatcher reconciliation failed', errorFields(err)));
  void run();
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
