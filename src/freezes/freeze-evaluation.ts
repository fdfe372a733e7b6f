import { occurrenceAt, occurrencesBetween, type Occurrence, type Recurrence } from './recurrence';

/** What evaluation needs of a freeze window (pure data: the repository maps rows onto it). */
export interface FreezeDefinition {
  id: string;
  name: string;
  reason: string;
  scope: 'organization' | 'project';
  /** Projects it covers; empty = every project (an organization-wide freeze without a project list). */
  projectIds: string[];
  /** Empty = every environment / every tenant. */
  environments: string[];
  tenants: string[];
  window: { kind: 'one-off'; startsAt: Date; endsAt: Date } | ({ kind: 'recurring' } & Recurrence);
}

/** The tenants and environment an action touches; `tenants` empty means every tenant of the project. */
export interface FreezeTarget {
  projectId: string;
  environment: string;
  tenants: string[];
}

export interface ActiveFreeze {
  freeze: FreezeDefinition;
  /** The occurrence running now (a one-off freeze's whole window). */
  occurrence: Occurrence;
}

const overlaps = (scope: string[], wanted: string[]) =>
  scope.length === 0 || wanted.length === 0 || wanted.some((w) => scope.includes(w));

/** Does the freeze's scope reach the target (project, environment, any of its tenants)? */
export function coversTarget(freeze: FreezeDefinition, target: FreezeTarget): boolean {
  return (
    (freeze.projectIds.length === 0 || freeze.projectIds.includes(target.projectId)) &&
    (freeze.environments.length === 0 || freeze.environments.includes(target.environment)) &&
    overlaps(freeze.tenants, target.tenants)
  );
}

/** The window's occurrence running at `at`, or null. */
export function currentOccurrence(freeze: FreezeDefinition, at: Date): Occurrence | null {
  const w = freeze.window;
  if (w.kind === 'one-off') return w.startsAt <= at && at < w.endsAt ? { start: w.startsAt, end: w.endsAt } : null;
  return occurrenceAt(w, at);
}

/**
 * The freezes in force for a target at an instant: in scope and inside a window (a recurring freeze's occurrence
 * in its own time zone, daylight-saving changes included). Pure: the clock is an argument.
 */
export function activeFreezes(freezes: FreezeDefinition[], target: FreezeTarget, at: Date): ActiveFreeze[] {
  const active: ActiveFreeze[] = [];
  for (const freeze of freezes) {
    if (!coversTarget(freeze, target)) continue;
    const occurrence = currentOccurrence(freeze, at);
    if (occurrence) active.push({ freeze, occurrence });
  }
  return active;
}

/** The windows of a freeze that run at `at` or start within `horizonMs` after it (at most `limit`). */
export function windowsWithin(freeze: FreezeDefinition, at: Date, horizonMs: number, limit: number): Occurrence[] {
  const w = freeze.window;
  const until = new Date(at.getTime() + horizonMs);
  if (w.kind === 'one-off') return w.endsAt > at && w.startsAt <= until ? [{ start: w.startsAt, end: w.endsAt }] : [];
  const current = occurrenceAt(w, at);
  const next = occurrencesBetween(w, new Date(at.getTime() + 1), until, limit).filter(
    (o) => o.start.getTime() !== current?.start.getTime(),
  );
  return (current ? [current, ...next] : next).slice(0, limit);
}
