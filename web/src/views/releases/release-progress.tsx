import { Link } from 'react-router';
import type { BreakGlassGrant, Release } from '../../api/models';

/**
 * The controller's word on the release's commit, and only that: the latest report at that revision (an older
 * revision's `Synced/Healthy` is not this release's progress), with what it still waits for.
 */
export function SyncFacts({ release }: { release: Release }) {
  const { sync, waitingFor = [] } = release;
  const said = sync.status || sync.health ? [sync.status, sync.health].filter(Boolean).join(' · ') : null;
  const waiting = waitingFor.map((a) =>
    a.syncStatus || a.healthStatus
      ? `${a.service} ${a.syncStatus ?? '?'}/${a.healthStatus ?? '?'}`
      : `${a.service} not reported`,
  );
  return (
    <>
      <dt>Sync</dt>
      <dd aria-live="polite">
        {said ?? (release.commitSha ? 'no report for this commit yet' : 'no report')}
        {sync.service && (
          <span className="muted">
            {' '}
            ({sync.service}
            {sync.reportedAt ? `, ${new Date(sync.reportedAt).toLocaleTimeString()}` : ''})
          </span>
        )}
        {waiting.length > 0 && <span className="muted"> · waiting for {waiting.join(', ')}</span>}
      </dd>
    </>
  );
}

/** `break-glass session <id> (who: why)`, linking to the session's page. */
export function BreakGlassName({ grant }: { grant: BreakGlassGrant }) {
  return (
    <>
      break-glass session{' '}
      <Link to={`/audit?breakGlassSessionId=${grant.sessionId}`}>{grant.sessionId.slice(0, 8)}</Link> (
      {grant.actor ?? grant.userId}: {grant.justification})
    </>
  );
}

/** Approvals as policies require them, or the break-glass session that bypassed them. */
export function ApprovalFacts({ release }: { release: Release }) {
  const { approvals } = release;
  return (
    <>
      <dt>Approvals</dt>
      <dd>
        {approvals.received} received
        {approvals.required.map((p) => ` · policy “${p.name}” requires ${p.requiredApprovals}`)}
        {approvals.bypassedBy && (
          <strong>
            {' '}
            · bypassed by <BreakGlassName grant={approvals.bypassedBy} />
          </strong>
        )}
      </dd>
      {release.breakGlass && !approvals.bypassedBy && (
        <>
          <dt>Break-glass</dt>
          <dd>
            ran under <BreakGlassName grant={release.breakGlass} />
          </dd>
        </>
      )}
    </>
  );
}
