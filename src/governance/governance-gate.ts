import type { Queryable } from '../db/knex';

export type GovernedAction = 'release.deploy' | 'promotion.execute' | 'rollback' | 'images.update';
export interface GateTarget {
  organizationId: string;
  projectId: string;
  environment: string;
  /** Tenant slugs; [] = every tenant. */
  tenants: string[];
}
export interface FreezeHit {
  id: string;
  name: string;
  reason: string;
  scope: 'organization' | 'project';
  stopTheLine: boolean;
  startsAt: string | null;
  /** End of the current occurrence; null = until switched off. */
  endsAt: string | null;
}
export interface BreakGlassGrant {
  sessionId: string;
  justification: string;
  userId: string;
  endsAt: string;
}
export interface GateVerdict {
  freezes: FreezeHit[];
  breakGlass: BreakGlassGrant | null;
  /** freezes.length > 0 && breakGlass === null */
  blocked: boolean;
}
export interface GovernanceGate {
  check(
    db: Queryable,
    target: GateTarget,
    action: GovernedAction,
    actorUserId: string | null,
    at?: Date,
  ): Promise<GateVerdict>;
}
/** Audit details an action taken under break-glass carries: { breakGlass: { sessionId, justification } } */
export function breakGlassDetails(grant: BreakGlassGrant | null): Record<string, unknown> {
  return grant ? { breakGlass: { sessionId: grant.sessionId, justification: grant.justification } } : {};
}
