import type { Db } from '../db/knex';
import { organizationsWithEventsSince } from '../events/domain-event-repository';
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
