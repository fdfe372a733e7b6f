import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RollbackView } from '../src/views/rollback/rollback-view';
import { answer, FakeApi, signedIn } from './fake-api';
import { shopProject, TENANT_ID } from './project-fixtures';
import { renderView } from './render-view';

const PREVIEW = '/api/v2/tenants/{tenant}/envs/{env}/rollback/preview' as const;
const ROLLBACK = '/api/v2/tenants/{tenant}/envs/{env}/rollback' as const;
const OLDER = 'f0000000-0000-4000-8000-000000000001';

function rollbackApi() {
  const preview = answer(PREVIEW, 'post', {
    tenant: 'acme',
    environment: 'prod',
    rollbackTo: { releaseId: OLDER, title: 'web 1.4.0', commitSha: 'abcdef1234567890', kind: 'release' },
    versions: [{ tenant: 'acme', workload: 'web', from: '1.5.0', to: '1.4.0', direction: 'downgrade' }],
    outcome: { status: 'PendingApproval', reason: 'waits for approval policy “prod-approvers” (2 approvals)' },
    approvalPolicies: [{ id: 'd0000000-0000-4000-8000-000000000001', name: 'prod-approvers', requiredApprovals: 2 }],
    targets: [],
  });
  const release = answer(ROLLBACK, 'post', { id: 'f0000000-0000-4000-8000-000000000002', kind: 'rollback' });
  return shopProject(signedIn(new FakeApi())).on(PREVIEW, 'post', preview).on(ROLLBACK, 'post', release, 201);
}

describe('rollback screen', () => {
  it('shows current -> proposed per service and the gate it waits for, and confirms only with a reason', async () => {
    const api = rollbackApi();
    const user = userEvent.setup({ delay: null });
    renderView(<RollbackView />, { api, route: '/projects/:slug/rollback', at: '/projects/shop/rollback' });

    // The target to roll back is chosen from the project's tenants and environments, once they are there.
    await screen.findByRole('option', { name: 'Acme' });
    await screen.findByRole('option', { name: 'prod' });
    await user.click(screen.getByRole('button', { name: 'Preview rollback' }));
    const versions = await screen.findByRole('list', { name: 'Versions (now → after the rollback)' });
    expect(versions).toHaveTextContent('acme / web: 1.5.0 → 1.4.0 downgrade');
    expect(screen.getByText(/Restores/)).toHaveTextContent('Restores web 1.4.0');
    expect(screen.getByRole('status')).toHaveTextContent('waits for approval policy “prod-approvers” (2 approvals)');
    expect(api.sent('POST', `/api/v2/tenants/${TENANT_ID}/envs/prod/rollback/preview`)).toHaveLength(1);

    const confirm = screen.getByRole('button', { name: 'Confirm rollback' });
    expect(confirm).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: /Reason/ }), '   ');
    expect(confirm).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: /Reason/ }), 'web 1.5.0 leaks memory');
    expect(confirm).toBeEnabled();
    await user.click(confirm);

    await waitFor(() => expect(api.sent('POST', `/api/v2/tenants/${TENANT_ID}/envs/prod/rollback`)).toHaveLength(1));
    expect(api.sent('POST', `/api/v2/tenants/${TENANT_ID}/envs/prod/rollback`)[0]!.body).toEqual({
      releaseId: OLDER,
      reason: 'web 1.5.0 leaks memory',
    });
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
    expect(within(document.body).queryByRole('alert')).toBeNull();
  });
});
