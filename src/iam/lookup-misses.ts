import type { Counter } from 'prom-client';
import type { Logger } from '../logging/logger';
import type { RateLimiter } from '../rate-limit/fixed-window-limiter';
import { auditActor, type OrgCaller } from './caller';

/** What a lookup by identifier that found nothing in the caller's organization was looking for. */
export interface MissedLookup {
  resourceType: string;
  value: string;
}

/**
 * Lookups by identifier that find nothing in the caller's organization. Missing and foreign identifiers take the
 * same path (one counter hit each, per caller, 429 past the limit), so neither the answer nor its timing tells them
 * apart. A foreign one goes to the operators' security log and metrics, never into the caller's organization log,
 * which the prober could read and grow without bound.
 */
export interface LookupMisses {
  record(caller: OrgCaller, lookup: MissedLookup, foreign: boolean): Promise<void>;
}

export interface LookupMissDeps {
  limiter: RateLimiter;
  log: Logger;
  denials: Counter<'resource_type'>;
  limit: number;
  windowMs: number;
}

export function createLookupMisses(deps: LookupMissDeps): LookupMisses {
  return {
    async record(caller, lookup, foreign) {
      const actor = auditActor(caller);
      await deps.limiter.hit([{ key: `lookup-miss:${actor.userId ?? actor.actor}`, limit: deps.limit }], deps.windowMs);
      if (!foreign) return;
      deps.denials.inc({ resource_type: lookup.resourceType });
      deps.log.warn('security: cross-organization lookup denied', {
        organizationId: caller.organizationId,
        actorType: actor.actorType,
        actor: actor.actor,
        requestId: actor.requestId,
        resourceType: lookup.resourceType,
        resourceId: lookup.value,
      });
    },
  };
}
