import type { ReleasePreview } from '../../api/models';
import { StatusBadge } from '../../components/status-badge';
import { ValidationResults } from './validation-results';

const OUTCOMES: Record<string, string> = {
  Refused: 'Creating this release would be refused',
  Blocked: 'The release would stop at Blocked',
  PendingApproval: 'The release would wait for approvals',
  AwaitingDeploy: 'The release would wait for a deploy call',
  Queued: 'The release would queue',
  Deploying: 'The release would deploy at once',
};

/** What creating the release would meet, from the server's preview: outcome, validation per resource, policies. */
export function ReleasePreviewPanel({ preview }: { preview: ReleasePreview }) {
  const { outcome, validation, policies } = preview;
  return (
    <section aria-labelledby="release-check" className="card" aria-live="polite">
      <h2 id="release-check">
        Before you create it <StatusBadge status={outcome.status} />
      </h2>
      <p>
        {OUTCOMES[outcome.status] ?? outcome.status}
        {outcome.reason && `: ${outcome.reason}`}
      </p>
      <h3>Validation</h3>
      <ValidationResults validation={validation} label="Validation results by resource" />
      <h3>Policies</h3>
      <p>
        {policies.failed.length === 0
          ? 'Every manifest policy rule passes.'
          : `Failed rules: ${policies.failed.join(', ')}${policies.blocked ? ` (enforced: ${policies.failedEnforced.join(', ')})` : ''}`}
      </p>
      <p>
        {preview.approvalPolicies.length === 0
          ? 'No approval policy applies.'
          : `Approvals: ${preview.approvalPolicies.map((p) => `${p.name} (${p.requiredApprovals})`).join(', ')}`}
        {preview.breakGlass && ` Your break-glass session covers this target: ${preview.breakGlass.justification}.`}
      </p>
      {preview.freezes.map((f) => (
        <p key={f.id}>
          <span className="tag freeze">frozen: {f.name}</span> {f.reason}
          {f.endsAt && ` (until ${new Date(f.endsAt).toLocaleString()})`}
        </p>
      ))}
      {preview.queue && (
        <p>
          <span className="tag">queued</span> Another release holds this target: “{preview.queue.behind.title}” (
          {preview.queue.behind.status}). This one waits for its turn.
        </p>
      )}
      {preview.pin && (
        <p>
          <span className="tag pin">pinned</span> {preview.pin.reason}: automatic and bulk updates skip this target.
          Deploying this release moves the target forward on purpose and releases the pin.
        </p>
      )}
    </section>
  );
}
