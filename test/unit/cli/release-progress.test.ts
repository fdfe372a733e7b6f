import type { Release } from '../../../cli/lib/api-types';
import { approvalsText, observeRelease, syncText } from '../../../cli/lib/release-progress';
import { answer, type DeepPartial } from '../../helpers/response-fixture';

/** A release as GET /api/v2/releases/{id} answers it (checked against its schema), with the fields a test names. */
const release = (over: DeepPartial<Release>): Release =>
  answer('/api/v2/releases/{id}', 'get', {
    id: 'f0000000-0000-4000-8000-000000000001',
    title: 'web 2',
    status: 'Syncing',
    statusReason: null,
    waitingBehind: null,
    tenant: 'acme',
    environment: 'prod',
    commitSha: 'abcdef0123456789',
    sync: { status: null, health: null, service: null, reportedAt: null },
    waitingFor: [],
    breakGlass: null,
    ...over,
  });

const session = {
  sessionId: 'f0000000-0000-4000-8000-0000000000b1',
  justification: 'checkout is down',
  userId: 'f0000000-0000-4000-8000-0000000000c1',
  actor: 'ops@example.com',
  endsAt: null,
};
const policy = {
  policyId: 'f0000000-0000-4000-8000-0000000000a1',
  name: 'prod needs one',
  requiredApprovals: 1,
  allowSelfApproval: false,
};

describe('delivery release get and --wait (issue 50)', () => {
  it('names the break-glass session that bypassed the approvals: id, who, why', () => {
    const bypassed = release({
      approvals: { required: [policy], received: 0, bypassedBy: session, decisions: [] },
    });
    expect(approvalsText(bypassed)).toBe(
      'bypassed by break-glass session f0000000-0000-4000-8000-0000000000b1 (ops@example.com: checkout is down)',
    );
    const waiting = release({
      approvals: { required: [policy], received: 0, bypassedBy: null, decisions: [] },
    });
    expect(approvalsText(waiting)).toBe('0 received (policy prod needs one requires 1)');
  });

  it('shows only what the controller said of the awaited commit: nothing yet, then Synced/Progressing', () => {
    const before = release({
      waitingFor: [{ service: 'web', syncStatus: null, healthStatus: null, reportedAt: null, revision: null }],
    });
    expect(syncText(before)).toBe('no report for this commit yet');
    expect(observeRelease(before).line).toBe(
      'Syncing — commit abcdef012345; waiting for the controller (web not reported)',
    );
    const during = release({
      sync: { status: 'Synced', health: 'Progressing' },
      waitingFor: [
        { service: 'web', syncStatus: 'Synced', healthStatus: 'Progressing', reportedAt: null, revision: 'abcdef0' },
      ],
    });
    expect(syncText(during)).toBe('Synced/Progressing');
    expect(observeRelease(during).line).toContain('(web Synced/Progressing)');
  });

  it('says a commit waits out a Git storage outage (and since when) while the release is Deploying (issue 43)', () => {
    const note =
      'commit waiting for the Git volume: ENOSPC: no space left on device, retrying since 2026-11-29T11:50:00.000Z';
    const waiting = release({ status: 'Deploying', commitSha: null, statusReason: note });
    expect(observeRelease(waiting)).toEqual({ line: `Deploying — ${note}` });
    const committing = release({ status: 'Deploying', commitSha: null, statusReason: null });
    expect(observeRelease(committing).line).toBe('Deploying — committing to the GitOps repository');
  });
});
