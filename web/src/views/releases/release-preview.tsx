import type { ReleasePreview } from '../../api/models';
import { StatusBadge } from '../../components/status-badge';

const OUTCOMES: Record<string, string> = {
  Refused: 'Creating this release would be refused',
  Blocked: 'The release would stop at Blocked',
  PendingApproval: 'The release would wait for approvals',
  AwaitingDeploy: 'The release would wait for a deploy call',
  Deploying: 'The release would deploy at once',
};

/** What creating the release would meet, from the server's preview: outcome, validation per resource, policies. */
export function ReleasePreviewPanel({ preview }: { preview: ReleasePreview }) {
  const { outcome, validation, policies } = preview;
  const { errors, warnings, deprecations } = validation.summary;
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
      <p>
        {errors} error(s), {warnings} warning(s), {deprecations} deprecation(s)
        {validation.blocked && ' — blocked by the project policy'}
      </p>
      {validation.resources.length > 0 && (
        <ul aria-label="Validation results by resource">
          {validation.resources.map((r) => (
            <li key={`${r.file}/${r.resource}`}>
              <strong>{r.resource}</strong> <code className="muted">{r.file}</code>
              <ul>
                {r.results.map((x, i) => (
                  <li key={i}>
                    {x.severity}: {x.path && <code>{x.path}</code>} {x.message}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
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
      {preview.pin && (
        <p>
          <span className="tag pin">pinned</span> {preview.pin.reason} (automatic and bulk updates skip this target)
        </p>
      )}
    </section>
  );
}
