import type { AuditEntry, TimelineEntry } from '../../api/models';

export interface TimelineItem {
  key: string;
  time: string;
  what: string;
  actor: string | null;
  detail: string | null;
  commitSha: string | null;
  /** The workflow's own step, or the audit entry written with the change. */
  source: 'workflow' | 'audit';
}

const words = (action: string) => action.replace(/^(release|promotion)\./, '').replace(/[._]/g, ' ');

/** What an audit entry adds in words: a controller report's sync and health, a comment, a reason. */
function detailOf(entry: AuditEntry): string | null {
  const d = entry.details;
  const parts = [d.syncStatus, d.healthStatus, d.status, d.reason, d.comment, d.to]
    .filter((v): v is string => typeof v === 'string' && v !== '')
    .map(String);
  return parts.length > 0 ? [...new Set(parts)].join(' · ') : null;
}

/**
 * One timeline out of the workflow's steps and the audit entries (which carry the commit and the controller's
 * reports), oldest first.
 */
export function mergeTimeline(steps: TimelineEntry[], audit: AuditEntry[]): TimelineItem[] {
  const items: TimelineItem[] = [
    ...steps.map((s, i) => ({
      key: `step-${i}`,
      time: s.time,
      what: s.step,
      actor: s.actor,
      detail: typeof s.result === 'string' ? s.result : null,
      commitSha: s.commitSha,
      source: 'workflow' as const,
    })),
    ...audit.map((a) => ({
      key: `audit-${a.id}`,
      time: a.createdAt,
      what: words(a.action),
      actor: a.actor,
      detail: detailOf(a),
      commitSha: a.gitCommitSha,
      source: 'audit' as const,
    })),
  ];
  return items.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
}
