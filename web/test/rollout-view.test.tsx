import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RolloutView } from '../src/views/rollouts/rollout-view';
import { answer, FakeApi, signedIn } from './fake-api';
import { renderView } from './render-view';

const ONE = '/api/v2/rollouts/{id}' as const;
const ID = 'f0000000-0000-4000-8000-000000000001';

const REASONS = {
  Running: null,
  Halted: 'wave 2 (half) failed error-rate',
  Superseded: 'superseded by rollout f0000000-0000-4000-8000-000000000002 (image web 2.1.0)',
};

/** A rollout in wave 2's soak after wave 1 was verified by two passing measurements and one failed then passed. */
function rolloutApi(status: 'Running' | 'Halted' | 'Superseded' = 'Running') {
  const base = answer(ONE, 'get');
  const [wave] = base.waves;
  const check = { kind: 'prometheus' as const, name: 'error-rate', count: 3, failureLimit: 1 };
  const m = (at: string, value: number, passed: boolean) => ({ check: 'error-rate', at, value, passed });
  return signedIn(new FakeApi()).on(
    ONE,
    'get',
    answer(ONE, 'get', {
      ...base,
      id: ID,
      project: 'shop',
      sourceEnvironment: 'staging',
      environment: 'prod',
      version: '2.0.0',
      status,
      statusReason: REASONS[status],
      currentWave: 1,
      waves: [
        {
          ...wave!,
          name: 'canary',
          selection: 'tenants t1, t2',
          tenants: ['t1', 't2'],
          soakSeconds: 60,
          approvalGate: false,
          checks: [check],
          state: 'Verified',
          reason: null,
          promotionIds: ['a0000000-0000-4000-8000-000000000001'],
          measurements: [
            m('2026-11-29T10:00:00Z', 0.001, true),
            m('2026-11-29T10:00:10Z', 0.02, false),
            m('2026-11-29T10:00:20Z', 0.002, true),
          ],
        },
        {
          ...wave!,
          name: 'half',
          selection: '50% of the rest',
          tenants: ['t3', 't4'],
          soakSeconds: 120,
          approvalGate: false,
          checks: [check],
          state: status === 'Halted' ? 'Failed' : 'Soaking',
          reason: null,
          promotionIds: ['a0000000-0000-4000-8000-000000000002'],
          measurements: [],
        },
      ],
    }),
  );
}

describe('the rollout view', () => {
  it('shows the waves in order with tenants, state and a chart of each check', async () => {
    renderView(<RolloutView />, { api: rolloutApi(), route: '/rollouts/:id', at: `/rollouts/${ID}` });
    const waves = await screen.findByRole('list', { name: 'Waves' });
    const items = within(waves).getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('data-wave'))).toEqual(['canary', 'half']);
    expect(items[0]).toHaveTextContent('t1, t2');
    expect(within(items[0]!).getByRole('img')).toHaveAccessibleName(
      'error-rate: 3 measurements, 1 failed, highest 0.02',
    );
    expect(items[1]).toHaveTextContent('soaking 120s');
    expect(items[1]).toHaveClass('current');
  });

  it('pauses with the reason given, skips the soak; abort needs the version typed back', async () => {
    const api = rolloutApi()
      .on(`${ONE}/pause`, 'post', answer(ONE, 'get'))
      .on(`${ONE}/abort`, 'post', answer(ONE, 'get'));
    const user = userEvent.setup({ delay: null });
    renderView(<RolloutView />, { api, route: '/rollouts/:id', at: `/rollouts/${ID}` });
    await screen.findByRole('list', { name: 'Waves' });
    // No reason, no action.
    expect(screen.getByRole('button', { name: 'Pause' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: /Abort/ })).toBeNull();
    await user.type(screen.getByLabelText('Reason (kept in the audit log)'), 'error budget spent');
    expect(screen.getByRole('button', { name: 'Skip the soak' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(api.sent('POST', `/api/v2/rollouts/${ID}/pause`)).toHaveLength(1));
    expect(api.sent('POST', `/api/v2/rollouts/${ID}/pause`)[0]!.body).toEqual({ reason: 'error budget spent' });

    await user.click(screen.getByRole('button', { name: 'Abort 2.0.0' }));
    const confirm = screen.getByRole('group', { name: 'Confirm: Abort 2.0.0' });
    expect(within(confirm).getByRole('button', { name: 'Abort 2.0.0' })).toBeDisabled();
    await user.type(within(confirm).getByRole('textbox'), '2.0.0');
    await user.click(within(confirm).getByRole('button', { name: 'Abort 2.0.0' }));
    await waitFor(() => expect(api.sent('POST', `/api/v2/rollouts/${ID}/abort`)).toHaveLength(1));
  });

  it('a halted rollout offers resume and abort, and says why it halted', async () => {
    renderView(<RolloutView />, { api: rolloutApi('Halted'), route: '/rollouts/:id', at: `/rollouts/${ID}` });
    expect(await screen.findByText(/wave 2 \(half\) failed error-rate/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resume' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
  });

  it('a superseded rollout says which rollout superseded it and offers no action', async () => {
    renderView(<RolloutView />, { api: rolloutApi('Superseded'), route: '/rollouts/:id', at: `/rollouts/${ID}` });
    expect(await screen.findByText(/superseded by rollout f0000000-0000-4000-8000-000000000002/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Superseded');
    expect(screen.queryByRole('region', { name: 'Actions' })).toBeNull();
    expect(screen.queryByLabelText('Reason (kept in the audit log)')).toBeNull();
    expect(within(screen.getByRole('list', { name: 'Waves' })).getAllByRole('listitem')[1]).not.toHaveClass('current');
  });
});
