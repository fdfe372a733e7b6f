import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ReleasePreviewPanel } from '../src/views/releases/release-preview';
import { ReleaseView } from '../src/views/releases/release-view';
import { answer, FakeApi, signedIn } from './fake-api';
import { renderView } from './render-view';

const ID = 'f0000000-0000-4000-8000-0000000000aa';
const RELEASE = '/api/v2/releases/{id}' as const;

function pendingRelease() {
  return answer(RELEASE, 'get', {
    id: ID,
    title: 'web 1.5.0',
    project: 'shop',
    tenant: 'acme',
    environment: 'prod',
    status: 'PendingApproval',
    statusReason: 'waiting for 1 more approval',
    commitSha: null,
    waitingBehind: null,
    breakGlass: null,
    validation: null,
    links: { workflow: null, history: `/api/v2/releases/${ID}/history` },
    approvals: {
      required: [
        {
          policyId: 'd0000000-0000-4000-8000-000000000001',
          name: 'prod-approvers',
          requiredApprovals: 2,
          allowSelfApproval: false,
        },
      ],
      received: 1,
      decisions: [],
      bypassedBy: null,
    },
  });
}

function releaseApi() {
  const release = pendingRelease();
  return signedIn(new FakeApi())
    .on(RELEASE, 'get', release)
    .on(
      '/api/v2/releases/{id}/history',
      'get',
      answer('/api/v2/releases/{id}/history', 'get', { timeline: [], audit: [] }),
    )
    .on('/api/v2/releases/{id}/approve', 'post', { ...release, approvals: { ...release.approvals, received: 2 } })
    .on('/api/v2/releases/{id}/reject', 'post', { ...release, status: 'Rejected' });
}

describe('release screen', () => {
  it('names the approval gate and what it still needs, and sends the approver’s decision with the comment', async () => {
    const api = releaseApi();
    const user = userEvent.setup({ delay: null });
    renderView(<ReleaseView />, { api, route: '/releases/:id', at: `/releases/${ID}` });

    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('web 1.5.0');
    expect(screen.getByText('acme / prod', { exact: false })).toBeInTheDocument();
    expect(screen.getByText(/received/)).toHaveTextContent('1 received · policy “prod-approvers” requires 2');
    expect(screen.getByText('waiting for 1 more approval')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'Comment (required to reject)' }), 'not during the sale');
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(api.sent('POST', `/api/v2/releases/${ID}/reject`)).toHaveLength(1));
    expect(api.sent('POST', `/api/v2/releases/${ID}/reject`)[0]!.body).toEqual({ comment: 'not during the sale' });
    expect(api.sent('POST', `/api/v2/releases/${ID}/approve`)).toHaveLength(0);
  });

  it('shows the server’s refusal in its own words', async () => {
    const api = releaseApi().refuse('/api/v2/releases/{id}/approve', 'post', 409, 'you requested this release');
    const user = userEvent.setup({ delay: null });
    renderView(<ReleaseView />, { api, route: '/releases/:id', at: `/releases/${ID}` });
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('you requested this release');
  });
});

describe('release preview (before creating a release)', () => {
  it('says where the release would stop, which gates apply, and what holds the target', () => {
    const preview = answer('/api/v2/projects/{slug}/releases/preview', 'post', {
      tenant: 'acme',
      environment: 'prod',
      outcome: { status: 'PendingApproval', reason: 'approval policy “prod-approvers” needs 2 approvals' },
      approvalPolicies: [{ id: 'd0000000-0000-4000-8000-000000000001', name: 'prod-approvers', requiredApprovals: 2 }],
      policies: { blocked: true, failed: ['no-latest-tag'], failedEnforced: ['no-latest-tag'], violations: 1 },
      breakGlass: null,
      freezes: [],
      pin: null,
      queue: {
        behind: { id: 'f0000000-0000-4000-8000-0000000000bb', title: 'web 1.4.9', status: 'Deploying' },
        waiting: 1,
        reason: 'the target is busy',
      },
      validation: { summary: { errors: 0, warnings: 1, deprecations: 0 }, blocked: false, resources: [] },
    });
    render(<ReleasePreviewPanel preview={preview} />);
    expect(screen.getByText(/The release would wait for approvals/)).toHaveTextContent(
      'The release would wait for approvals: approval policy “prod-approvers” needs 2 approvals',
    );
    expect(screen.getByText(/^Approvals:/)).toHaveTextContent('Approvals: prod-approvers (2)');
    expect(screen.getByText(/Failed rules/)).toHaveTextContent('Failed rules: no-latest-tag (enforced: no-latest-tag)');
    expect(screen.getByText(/Another release holds this target/)).toHaveTextContent('“web 1.4.9” (Deploying)');
    expect(screen.getByText(/warning\(s\)/)).toHaveTextContent('0 error(s), 1 warning(s), 0 deprecation(s)');
  });
});
