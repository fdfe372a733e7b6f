/** What the governance gate answers, as plain data (workflow code imports it: no I/O here). */
import type { Queryable } from '../db/knex';
import type { RowsOf, RowsQuery } from '../db/rows-together';
import type { BreakGlassSession } from '../break-glass/break-glass-repository';
import type { FreezeRecord, StopTheLine } from '../freezes/freeze-repository';

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
  /** Who opened the session, as audited (absent in grants recorded before issue 50). */
  actor?: string;
  endsAt: string;
}

export interface GateVerdict {
  freezes: FreezeHit[];
  breakGlass: BreakGlassGrant | null;
  /** See verdictOf. */
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
  /**
   * The verdicts of several targets of one project (each tenant-and-environment pair of an image update), the same as
   * `check` of each, with the project's freezes read once rather than once a target.
   */
  checkEach(
    db: Queryable,
    project: ProjectRef,
    targets: Pick<GateTarget, 'environment' | 'tenants'>[],
    action: GovernedAction,
    actorUserId: string | null,
    at?: Date,
  ): Promise<GateVerdict[]>;
  /**
   * `checkEach` in two halves, for a caller that reads the gate's rows in a statement with its own (issue 46: an image
   * update reads its project, its targets, their pins and the gate's rows in one): the selects, no I/O...
   */
  readsFor(db: Queryable, project: ProjectRef, actorUserId: string | null, at?: Date): GateReads;
  /** ...then the verdicts from their rows, as `checkEach` answers them. */
  verdictsFrom(
    reads: GateReads,
    rows: RowsOf<GateReads['parts']>,
    targets: Pick<GateTarget, 'environment' | 'tenants'>[],
    action: GovernedAction,
  ): GateVerdict[];
}

type ProjectRef = { organizationId: string; projectId: string };

/** What the gate reads for a project and an actor at a time (`readsFor`). */
export interface GateReads {
  project: ProjectRef;
  actorUserId: string | null;
  at: Date;
  parts: { line: RowsQuery<StopTheLine>; windows: RowsQuery<FreezeRecord>; sessions: RowsQuery<BreakGlassSession> };
}

/**
 * The gate's decision: a governed action is blocked while any freeze is in force, unless the actor's break-glass
 * session covers it (the session bypasses freezes and approval waits, and is audited on the action).
 */
export function verdictOf(freezes: FreezeHit[], breakGlass: BreakGlassGrant | null): GateVerdict {
  return { freezes, breakGlass, blocked: freezes.length > 0 && breakGlass === null };
}

/** The id a stop-the-line hit carries (it is the organization's switch, not a stored window). */
export const STOP_THE_LINE_ID = 'stop-the-line';

/** Audit details an action taken under break-glass carries: { breakGlass: { sessionId, justification } } */
export function breakGlassDetails(grant: BreakGlassGrant | null): Record<string, unknown> {
  return grant ? { breakGlass: { sessionId: grant.sessionId, justification: grant.justification } } : {};
}

/** The plain sentence naming the freezes that block an action (for 409 answers). */
export function frozenMessage(hits: FreezeHit[]): string {
  const named = hits.map((h) => (h.stopTheLine ? `stop the line (${h.reason})` : `${h.name} (${h.reason})`));
  return `frozen by ${named.join(', ')}`;
}

/** When every freeze of `hits` has ended (epoch ms), or null when one holds until switched off. */
export function freezesClearAt(hits: FreezeHit[]): number | null {
  const ends = hits.map((h) => (h.endsAt ? Date.parse(h.endsAt) : null));
  return ends.includes(null) ? null : Math.max(...(ends as number[]));
}
