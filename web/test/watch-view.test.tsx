import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { WatchView } from '../src/views/watch/watch-view';
import { answer, FakeApi, signedIn } from './fake-api';
import { shopProject } from './project-fixtures';
import { renderView } from './render-view';

const SUBSCRIPTIONS = '/api/v2/projects/{slug}/watch/subscriptions' as const;
const DISCOVERIES = '/api/v2/projects/{slug}/watch/discoveries' as const;
const SUB_ID = 'd0000000-0000-4000-8000-000000000001';

function watchApi(nextCursor: string | null = null) {
  const [sub] = answer(SUBSCRIPTIONS, 'get').items;
  const [found] = answer(DISCOVERIES, 'get').items;
  const discovery = (tag: string, outcome: Partial<NonNullable<typeof found>['outcomes'][number]>) => ({
    ...found!,
    id: `f000000${tag.length}-0000-4000-8000-00000000${tag.replace(/\./g, '').padStart(4, '0')}`,
    repository: 'shop/web',
    tag,
    status: 'evaluated' as const,
    outcomes: [
      {
        subscriptionId: SUB_ID,
        workload: 'web',
        kind: 'image' as const,
        chosen: '1.10.0',
        result: 'committed',
        commit: 'a'.repeat(40),
        targets: [],
        recordedOnly: ['prod'],
        ...outcome,
      },
    ],
  });
  return shopProject(signedIn(new FakeApi()))
    .on(
      SUBSCRIPTIONS,
      'get',
      answer(SUBSCRIPTIONS, 'get', {
        items: [
          {
            ...sub!,
            id: SUB_ID,
            workload: 'web',
            kind: 'image',
            source: 'platform',
            repository: 'shop/web',
            policy: { kind: 'semver', range: '>=1.0.0 <2.0.0', includePrerelease: false },
            environments: ['dev'],
            tenants: [],
          },
        ],
      }),
    )
    .on(DISCOVERIES, 'get', (call) =>
      // The page after `nextCursor` holds an older version.
      call.query.get('cursor') === nextCursor && nextCursor !== null
        ? answer(DISCOVERIES, 'get', { items: [discovery('1.9.0', { result: 'not-chosen' })], nextCursor: null })
        : answer(DISCOVERIES, 'get', {
            items: [
              discovery('1.11.0', {
                result: 'accepted',
                commit: null,
                rollouts: [{ rolloutId: 'f0000000-0000-4000-8000-000000000009', environment: 'prod' }],
              }),
              discovery('1.2.0', { result: 'not-chosen' }),
              discovery('1.10.0', {
                targets: [
                  { tenant: 'acme', environment: 'dev', state: 'pinned', detail: 'rolled back' },
                  {
                    tenant: 'globex',
                    environment: 'dev',
                    state: 'verified',
                    commit: 'a'.repeat(40),
                    verifiedAt: '2026-11-29T12:00:00Z',
                  },
                ],
              }),
            ],
            nextCursor,
          }),
    );
}

describe('the automation view', () => {
  it('lists the subscriptions and each version found with every target verified or why not', async () => {
    renderView(<WatchView />, { api: watchApi(), route: '/projects/:slug/watch', at: '/projects/shop/watch' });
    const subscriptions = await screen.findByRole('table', { name: 'Watch subscriptions' });
    expect(within(subscriptions).getByText('semver >=1.0.0 <2.0.0')).toBeInTheDocument();
    const found = await screen.findByRole('table', { name: 'Versions found' });
    const rows = within(found).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
      'shop/web:1.11.0',
      'shop/web:1.2.0',
      'shop/web:1.10.0',
    ]);
    // An environment with a rollout plan: the version goes there in a rollout's waves, linked.
    const rollout = rows.shift()!;
    expect(within(rollout).getByRole('link', { name: 'in a rollout' })).toHaveAttribute(
      'href',
      '/rollouts/f0000000-0000-4000-8000-000000000009',
    );
    expect(rollout).toHaveTextContent('prod: in a rollout, wave by wave (its plan)');
    expect(rows[0]).toHaveTextContent('not chosen (the policy prefers 1.10.0)');
    // What the subscription updates: the image tag (or a chart-based workload's chart version).
    expect(rows[0]!.children[3]).toHaveTextContent(/^image$/);
    expect(within(rows[1]!).getByText(/^acme\/dev/)).toHaveTextContent('acme/dev: not updated: pinned (rolled back)');
    expect(within(rows[1]!).getByText(/^globex\/dev/)).toHaveTextContent('globex/dev: verified (Synced and Healthy)');
    // prod is not an environment the subscription updates: there the version is only recorded.
    expect(rows[1]!.lastElementChild).toHaveTextContent('prod');
  });

  it('adds a subscription with the policy typed, and asks for older versions by cursor', async () => {
    const api = watchApi('next-page').on(SUBSCRIPTIONS, 'post', answer(SUBSCRIPTIONS, 'post'), 201);
    const user = userEvent.setup({ delay: null });
    renderView(<WatchView />, { api, route: '/projects/:slug/watch', at: '/projects/shop/watch' });
    await screen.findByRole('table', { name: 'Versions found' });
    await user.click(screen.getByRole('button', { name: 'Older versions' }));
    // The older page's version follows the first page's.
    const found = screen.getByRole('table', { name: 'Versions found' });
    expect(await within(found).findByRole('rowheader', { name: 'shop/web:1.9.0' })).toBeInTheDocument();
    expect(
      api.sent('GET', '/api/v2/projects/shop/watch/discoveries').some((c) => c.query.get('cursor') === 'next-page'),
    ).toBe(true);

    await user.click(screen.getByRole('button', { name: 'New subscription' }));
    const form = screen.getByRole('form', { name: 'New subscription' });
    await user.selectOptions(within(form).getByLabelText('Workload'), 'web');
    await user.type(within(form).getByLabelText(/^Repository/), 'shop/web');
    await user.selectOptions(within(form).getByLabelText('Policy'), 'regex');
    await user.type(within(form).getByLabelText('Range, pattern or tag'), '^b([[0-9]+)$');
    await user.selectOptions(within(form).getByLabelText('Order (pattern)'), 'numeric');
    await user.type(within(form).getByLabelText(/^Environments updated/), 'dev, staging');
    await user.click(within(form).getByRole('button', { name: 'Create subscription' }));
    // staging is not an environment of the project: refused before anything is sent.
    expect(await within(form).findByText('not environments of the project: staging')).toBeInTheDocument();
    expect(api.sent('POST', '/api/v2/projects/shop/watch/subscriptions')).toEqual([]);
    await user.clear(within(form).getByLabelText(/^Environments updated/));
    await user.type(within(form).getByLabelText(/^Environments updated/), 'dev');
    await user.click(within(form).getByRole('button', { name: 'Create subscription' }));
    await waitFor(() => expect(api.sent('POST', '/api/v2/projects/shop/watch/subscriptions')).toHaveLength(1));
    expect(api.sent('POST', '/api/v2/projects/shop/watch/subscriptions')[0]!.body).toEqual({
      workload: 'web',
      repository: { source: 'platform', name: 'shop/web' },
      policy: { kind: 'regex', pattern: '^b([0-9]+)$', order: 'numeric' },
      environments: ['dev'],
    });
  });
});
