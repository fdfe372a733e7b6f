/** A controller report as ordering sees it: the revision's place in the commit order (null: unknown) and its time. */
export interface OrderedReport {
  revision: string;
  position: number | null;
  syncStatus: string;
  healthStatus: string;
  reportedAt: Date;
}

export type ReportOutcome = 'applied' | 'identical' | 'stale';

/**
 * Whether a report replaces the stored one. Argo CD stamps notifications to the second, so two reports of one sync
 * (`Synced/Progressing` then `Synced/Healthy`) often carry the same timestamp: ordering is by revision first (a report
 * of an older commit than the stored one is stale, whatever its time), then by time, and at an equal time by arrival
 * (the later one wins). The same report again changes nothing.
 */
export function reportOrder(stored: OrderedReport | null, incoming: OrderedReport): ReportOutcome {
  if (!stored) return 'applied';
  if (stored.position !== null && incoming.position !== null && stored.position !== incoming.position) {
    return incoming.position > stored.position ? 'applied' : 'stale';
  }
  const delta = incoming.reportedAt.getTime() - stored.reportedAt.getTime();
  if (delta < 0) return 'stale';
  const same =
    stored.revision === incoming.revision &&
    stored.syncStatus === incoming.syncStatus &&
    stored.healthStatus === incoming.healthStatus;
  if (same && delta === 0) return 'identical';
  return 'applied';
}
