import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PromotionsView } from '../src/views/promotions/promotions-view';
import { answer, FakeApi, signedIn } from './fake-api';
import { shopProject } from './project-fixtures';
import { renderView } from './render-view';

const PREVIEW = '/api/v2/projects/{slug}/promotion/preview' as const;
const REQUEST = '/api/v2/projects/{slug}/promotion/request' as const;
const ROLLOUT_ID = 'f0000000-0000-4000-8000-0000000000dd';

const wave = (name: string, tenants: string[], waitsFor: string[]) => ({
  name,
  selection: `tenants ${tenants.join(', ')}`,
  tenants,
  soakSeconds: 600,
  approvalGate: name === 'rest',
  checks: [],
  waitsFor,
});

/** prod has a 2-wave plan: canary (acme) soaks 10 minutes; rest (globex) waits for it and for an approval. */
function wavesApi() {
  const api = shopProject(signedIn(new FakeApi()))
    .on('/api/v2/projects/{slug}/promotions', 'get', answer('/api/v2/projects/{slug}/promotions', 'get', { items: [] }))
    .on('/api/v2/projects/{slug}/compare', 'get', answer('/api/v2/projects/{slug}/compare', 'get', { items: [] }))
    .on(
      PREVIEW,
      'post',
      answer(PREVIEW, 'post', {
        sourceEnvironment: 'dev',
        targetEnvironment: 'prod',
        moves: [],
        rollout: {
          plan: 'environment',
          waves: [
            wave('canary', ['acme'], ['freeze Incident until 2026-12-01T10:00:00.000Z', 'soak 10m']),
            wave(
              'rest',
              ['globex'],
              ['wave canary verified', 'approval: 1 approval(s) by role admin (prod)', 'soak 10m'],
            ),
          ],
        },
      }),
    );
  const rollout = answer('/api/v2/rollouts/{id}', 'get', { id: ROLLOUT_ID });
  return api.on(
    REQUEST,
    'post',
    answer(REQUEST, 'post', {
      rolloutId: ROLLOUT_ID,
      rollout,
      links: { rollout: `/api/v2/rollouts/${ROLLOUT_ID}`, ui: `/rollouts/${ROLLOUT_ID}` },
    }),
  );
}

describe('the promotion form over a rollout plan', () => {
  it('lists each wave with its tenants and what it waits for, and the request opens the rollout', async () => {
    const api = wavesApi();
    const user = userEvent.setup({ delay: null });
    renderView(<PromotionsView />, {
      api,
      route: '/projects/:slug/promotions',
      at: '/projects/shop/promotions?source=dev&target=prod',
    });
    expect(await screen.findByRole('heading', { name: "Rollout in 2 waves (prod's plan)" })).toBeInTheDocument();
    const waves = within(screen.getByRole('list', { name: 'Rollout waves' }));
    expect(waves.getAllByRole('listitem').at(0)).toHaveTextContent('canary (tenants acme): acme');
    expect(screen.getByRole('list', { name: 'canary waits for' })).toHaveTextContent(
      'freeze Incident until 2026-12-01T10:00:00.000Z',
    );
    const rest = screen.getByRole('list', { name: 'rest waits for' });
    expect(
      within(rest)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['wave canary verified', 'approval: 1 approval(s) by role admin (prod)', 'soak 10m']);
    expect(api.sent('POST', '/api/v2/projects/shop/promotion/preview')[0]!.body).toEqual({
      sourceEnvironment: 'dev',
      targetEnvironment: 'prod',
    });

    await user.click(screen.getByRole('button', { name: 'Request promotion' }));
    // The answer is the rollout the request started: the form hands over to it.
    expect(await screen.findByText('elsewhere')).toBeVisible();
    expect(api.sent('POST', '/api/v2/projects/shop/promotion/request')).toHaveLength(1);
  });

  it('without a plan says every tenant moves in one promotion', async () => {
    const api = wavesApi().on(PREVIEW, 'post', answer(PREVIEW, 'post', { moves: [], rollout: null }));
    renderView(<PromotionsView />, {
      api,
      route: '/projects/:slug/promotions',
      at: '/projects/shop/promotions?source=dev&target=prod',
    });
    expect(await screen.findByText('prod has no rollout plan: every tenant moves in one promotion.')).toBeVisible();
    expect(screen.queryByRole('list', { name: 'Rollout waves' })).toBeNull();
  });
});
