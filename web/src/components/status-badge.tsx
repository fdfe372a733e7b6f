const TONES: Record<string, string> = {
  Healthy: 'good',
  Synced: 'good',
  Approved: 'good',
  Completed: 'good',
  Failed: 'bad',
  Blocked: 'bad',
  Rejected: 'bad',
  Degraded: 'bad',
  Expired: 'muted',
  Cancelled: 'muted',
  Superseded: 'muted',
  Connected: 'good',
  Disconnected: 'bad',
  success: 'good',
  succeeded: 'good',
  failure: 'bad',
  failed: 'bad',
  timeout: 'bad',
  refused: 'bad',
  closed: 'muted',
  resolved: 'muted',
};

/** A status in words with a colour that only repeats what the words say. */
export function StatusBadge({ status }: { status: string | null | undefined }) {
  if (!status) return null;
  return <span className={`badge ${TONES[status] ?? 'busy'}`}>{status}</span>;
}
