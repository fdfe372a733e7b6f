import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PromotionView } from '../src/views/promotions/promotion-view';
import { answer, FakeApi, signedIn } from './fake-api';
import { renderView } from './render-view';

const ID = 'f0000000-0000-4000-8000-0000000000cc';
const PROMOTION = '/api/v2/promotions/{id}' as const;

function blockedPromotion() {
  return answer(PROMOTION, 'get', {
    id: ID,
    project: 'shop',
    sourceEnvironment: 'staging',
    targetEnvironment: 'prod',
    status: 'Blocked',
    statusReason: 'waiting for approvals',
    commitSha: null,
    downgrade: true,
    causes: [
      { cause: 'approvals', message: 'approval policy “prod-approvers” needs 2 approvals, 0 received', details: {} },
    ],
    moves: [{ tenant: 'acme', changes: [{ workload: 'web', tag: '1.4.0' }] }],
    versions: [
      { tenant: 'acme', workload: 'web', from: '1.5.0', to: '1.4.0', direction: 'downgrade' },
      { tenant: 'acme', workload: 'api', from: '2.0.0', to: '2.1.0', direction: 'upgrade' },
    ],
    approvals: {
      required: [{ policyId: 'd0000000-0000-4000-8000-000000000001', name: 'prod-approvers', requiredApprovals: 2 }],
      received: [],
    },
  });
}

function promotionApi() {
  return signedIn(new FakeApi())
    .on(PROMOTION, 'get', blockedPromotion())
    .on(
      '/api/v2/promotions/{id}/history',
      'get',
      answer('/api/v2/promotions/{id}/history', 'get', { timeline: [], audit: [] }),
    )
    .on('/api/v2/promotions/{id}/approve', 'post', blockedPromotion());
}

describe('promotion screen', () => {
  it('shows current -> proposed per service with the downgrade named, and why it is blocked and how that clears', async () => {
    const api = promotionApi();
    renderView(<PromotionView />, { api, route: '/promotions/:id', at: `/promotions/${ID}` });

    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Promotion staging → prod');
    const moves = screen.getByRole('list', { name: 'What moves' });
    expect(moves).toHaveTextContent('acme / web: 1.5.0 → 1.4.0 downgrade');
    expect(moves).toHaveTextContent('acme / api: 2.0.0 → 2.1.0');
    expect(moves).not.toHaveTextContent('2.1.0 downgrade');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Downgrade: the target would run an older version (acme/web 1.5.0 → 1.4.0)',
    );
    const causes = screen.getByRole('heading', { name: 'Why it is blocked' }).nextElementSibling!;
    expect(causes).toHaveTextContent('approvals: approval policy “prod-approvers” needs 2 approvals, 0 received');
    expect(causes).toHaveTextContent('Clears as soon as the approvals the policies need arrive.');
    expect(screen.getByText(/^Approvals:/)).toHaveTextContent(
      'Approvals: none yet · policy “prod-approvers” requires 2',
    );
  });

  it('approves with the comment typed, and offers no reject (a promotion is cancelled instead)', async () => {
    const api = promotionApi();
    const user = userEvent.setup({ delay: null });
    renderView(<PromotionView />, { api, route: '/promotions/:id', at: `/promotions/${ID}` });
    await user.type(await screen.findByRole('textbox', { name: 'Comment' }), 'checked the downgrade');
    expect(screen.queryByRole('button', { name: 'Reject' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(api.sent('POST', `/api/v2/promotions/${ID}/approve`)).toHaveLength(1));
    expect(api.sent('POST', `/api/v2/promotions/${ID}/approve`)[0]!.body).toEqual({ comment: 'checked the downgrade' });
  });
});
