import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ProjectView } from '../src/views/projects/project-view';
import { PromotionsView } from '../src/views/promotions/promotions-view';
import { answer, FakeApi, signedIn } from './fake-api';
import { shopProject } from './project-fixtures';
import { renderView } from './render-view';

const TENANTS = '/api/v2/projects/{slug}/tenants' as const;
const WORKLOADS = '/api/v2/projects/{slug}/workloads' as const;

/** Shop with two tenants: web 1.5.0 everywhere but acme's prod, which an environment override keeps on 1.4.0. */
function pipelineApi() {
  const [tenant] = answer(TENANTS, 'get').items;
  const [workload] = answer(WORKLOADS, 'get').items;
  return shopProject(signedIn(new FakeApi()))
    .on(
      TENANTS,
      'get',
      answer(TENANTS, 'get', {
        items: [
          { ...tenant!, id: 'c0000000-0000-4000-8000-000000000001', slug: 'acme', name: 'Acme' },
          { ...tenant!, id: 'c0000000-0000-4000-8000-000000000002', slug: 'globex', name: 'Globex' },
        ],
        nextCursor: null,
      }),
    )
    .on(
      WORKLOADS,
      'get',
      answer(WORKLOADS, 'get', {
        items: [
          {
            ...workload!,
            name: 'web',
            image: { repository: 'registry.example/web', tag: '1.5.0' },
            overrides: { environments: { prod: { tag: '1.4.0' } }, tenants: { globex: { prod: { tag: '1.5.0' } } } },
          },
        ],
        nextCursor: null,
      }),
    )
    .on(
      '/api/v2/projects/{slug}/promotions',
      'get',
      answer('/api/v2/projects/{slug}/promotions', 'get', { items: [], nextCursor: null }),
    )
    .on(
      '/api/v2/projects/{slug}/deployments',
      'get',
      answer('/api/v2/projects/{slug}/deployments', 'get', { items: [], nextCursor: null }),
    );
}

const card = (tenantEnv: string) => document.querySelector(`li[data-card="${tenantEnv}"]`)!;

describe('the pipeline picture', () => {
  it('draws the environments in promotion order, a card per tenant, and highlights a version where it is', async () => {
    renderView(<ProjectView />, { api: pipelineApi(), route: '/projects/:slug', at: '/projects/shop' });
    const picture = await screen.findByRole('figure', { name: 'Pipeline of web' });
    expect(
      within(picture)
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual(['dev', 'prod']);
    expect(card('acme/prod')).toHaveAccessibleName('Acme in prod: 1.4.0');
    // Pointing at dev's 1.5.0: its path is dev (both tenants) and globex's prod, not acme's prod.
    fireEvent.mouseEnter(card('acme/dev'));
    const lit = [...picture.querySelectorAll('li.same-version')].map((c) => c.getAttribute('data-card'));
    expect(lit).toEqual(['acme/dev', 'globex/dev', 'globex/prod']);
    fireEvent.mouseLeave(card('acme/dev'));
    expect(picture.querySelectorAll('li.same-version')).toHaveLength(0);
    // Between dev and prod: compare and promote, one click each.
    const hop = within(picture).getByRole('listitem', { name: 'dev to prod' });
    expect(within(hop).getByRole('link', { name: 'Compare' })).toHaveAttribute(
      'href',
      '/projects/shop/compare?from=dev&to=prod',
    );
    expect(within(hop).getByRole('link', { name: 'Promote' })).toHaveAttribute(
      'href',
      '/projects/shop/promotions?source=dev&target=prod&service=web',
    );
  });

  it("marks the tenants of an unfinished rollout's waves, each with its wave and state", async () => {
    const ROLLOUTS = '/api/v2/projects/{slug}/rollouts' as const;
    const [base] = answer(ROLLOUTS, 'get').items;
    const wave = (tenants: string[], state: 'Verified' | 'Soaking') => ({ ...base!.waves[0]!, tenants, state });
    const api = pipelineApi().on(
      ROLLOUTS,
      'get',
      answer(ROLLOUTS, 'get', {
        items: [
          {
            ...base!,
            id: 'f0000000-0000-4000-8000-000000000001',
            environment: 'prod',
            status: 'Running',
            waves: [wave(['acme'], 'Verified'), wave(['globex'], 'Soaking')],
          },
        ],
        nextCursor: null,
      }),
    );
    renderView(<ProjectView />, { api, route: '/projects/:slug', at: '/projects/shop' });
    await screen.findByRole('figure', { name: 'Pipeline of web' });
    const mark = await within(card('globex/prod') as HTMLElement).findByRole('link', { name: /rollout wave 2\/2/ });
    expect(mark).toHaveAttribute('href', '/rollouts/f0000000-0000-4000-8000-000000000001');
    expect(mark).toHaveTextContent('Soaking');
    expect(within(card('acme/prod') as HTMLElement).getByRole('link', { name: /rollout wave 1\/2/ })).toHaveTextContent(
      'Verified',
    );
    expect(within(card('acme/dev') as HTMLElement).queryByRole('link', { name: /rollout/ })).toBeNull();
  });

  it('as it was at an instant: no compare or promote', async () => {
    renderView(<ProjectView />, {
      api: pipelineApi(),
      route: '/projects/:slug',
      at: '/projects/shop?at=2026-11-28T14:05:00.000Z',
    });
    const picture = await screen.findByRole('figure', { name: 'Pipeline of web' });
    expect(within(picture).queryByRole('link', { name: 'Promote' })).toBeNull();
  });

  it("the Promote link's promotion form starts from those environments and that service", async () => {
    const api = pipelineApi().on(
      '/api/v2/projects/{slug}/compare',
      'get',
      answer('/api/v2/projects/{slug}/compare', 'get', { items: [] }),
    );
    renderView(<PromotionsView />, {
      api,
      route: '/projects/:slug/promotions',
      at: '/projects/shop/promotions?source=prod&target=dev&service=web',
    });
    await waitFor(() => expect(api.sent('GET', '/api/v2/projects/shop/compare').length).toBeGreaterThan(0));
    const query = api.sent('GET', '/api/v2/projects/shop/compare')[0]!.query;
    expect([query.get('from'), query.get('to')]).toEqual(['prod', 'dev']);
    expect(await screen.findByRole('checkbox', { name: 'web' })).toBeChecked();
  });
});
