import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ChangesView } from '../src/views/history/changes-view';
import { MetricsView } from '../src/views/history/metrics-view';
import { ProjectView } from '../src/views/projects/project-view';
import { answer, FakeApi, signedIn } from './fake-api';
import { shopProject } from './project-fixtures';
import { renderView } from './render-view';

const DEPLOYMENTS = '/api/v2/projects/{slug}/deployments' as const;
const CHANGES = '/api/v2/projects/{slug}/deployments/changes' as const;
const METRICS = '/api/v2/projects/{slug}/deployments/metrics' as const;
const AT = '2026-11-28T14:05:00.000Z';

function projectApi() {
  const [deployment] = answer(DEPLOYMENTS, 'get').items;
  return shopProject(signedIn(new FakeApi()))
    .on(
      '/api/v2/projects/{slug}/promotions',
      'get',
      answer('/api/v2/projects/{slug}/promotions', 'get', { items: [], nextCursor: null }),
    )
    .on(
      DEPLOYMENTS,
      'get',
      answer(DEPLOYMENTS, 'get', {
        items: [
          {
            ...deployment!,
            tenant: 'acme',
            environment: 'prod',
            service: 'web',
            desired: { ...deployment!.desired!, version: '1.1.0' },
            live: { ...deployment!.live!, version: '1.1.0', healthStatus: 'Healthy', syncStatus: 'Synced' },
          },
        ],
        nextCursor: null,
      }),
    );
}

describe('the matrix at an instant', () => {
  it('shows the versions committed then, asks the API for that instant and keeps it in the URL', async () => {
    const api = projectApi();
    renderView(<ProjectView />, { api, route: '/projects/:slug', at: `/projects/shop?at=${AT}` });
    const cell = await screen.findByText('1.1.0', { selector: 'td[data-cell="acme/web/prod"] > code' });
    expect(cell).toBeTruthy();
    expect(screen.getByText('As it was at 2026-11-28 14:05:00 UTC')).toBeTruthy();
    expect(api.sent('GET', '/api/v2/projects/shop/deployments').every((c) => c.query.get('at') === AT)).toBe(true);
    // Dev had nothing committed then.
    expect(within(document.querySelector('td[data-cell="acme/web/dev"]')!).getByText('-')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Changes since then' }).getAttribute('href')).toBe(
      `/projects/shop/changes?from=${encodeURIComponent(AT)}`,
    );
  });

  it('moves to the instant typed in the field, and back to now', async () => {
    const api = projectApi();
    renderView(<ProjectView />, { api, route: '/projects/:slug', at: '/projects/shop' });
    expect(await screen.findByText('Now', { selector: 'legend' })).toBeTruthy();
    // Now: the configured version (1.5.0), polled without an instant.
    expect(api.sent('GET', '/api/v2/projects/shop/deployments')[0]!.query.get('at')).toBeNull();
    fireEvent.change(screen.getByLabelText('Instant (UTC)'), { target: { value: '2026-11-28T14:05:00' } });
    expect(await screen.findByText('As it was at 2026-11-28 14:05:00 UTC')).toBeTruthy();
    await screen.findByText('1.1.0', { selector: 'td[data-cell="acme/web/prod"] > code' });
    expect(api.sent('GET', '/api/v2/projects/shop/deployments').some((c) => c.query.get('at') === AT)).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Now' }));
    expect(await screen.findByText('Now', { selector: 'legend' })).toBeTruthy();
  });
});

describe('the changes view', () => {
  it('lists the rollback with its actor and reason, and the health transitions, oldest first', async () => {
    const [item] = answer(CHANGES, 'get').items;
    const api = shopProject(signedIn(new FakeApi())).on(
      CHANGES,
      'get',
      answer(CHANGES, 'get', {
        items: [
          {
            ...item!,
            tenant: 'acme',
            environment: 'prod',
            service: 'web',
            changes: [
              {
                at: '2026-11-28T14:10:00.000Z',
                revision: 'abc',
                from: '1.3.0',
                to: '1.2.0',
                cause: 'rollback',
                by: { kind: 'release', id: null, actor: 'dana@example.com', title: 'Rollback to web 1.2.0: bad image' },
                auditIds: [],
              },
            ],
            health: [
              {
                at: '2026-11-28T14:08:00.000Z',
                reportedAt: '2026-11-28T14:08:00.000Z',
                revision: 'def',
                version: '1.3.0',
                syncStatus: 'Synced',
                from: 'Progressing',
                to: 'Degraded',
              },
            ],
            truncated: false,
          },
        ],
        nextCursor: null,
      }),
    );
    renderView(<ChangesView />, { api, route: '/projects/:slug/changes', at: `/projects/shop/changes?from=${AT}` });
    const table = await screen.findByRole('table', { name: 'Changes' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(rows).toEqual([
      ['2026-11-28 14:08:00 UTC', 'acme/prod/web', 'health', 'Progressing → Degraded (1.3.0)', ''],
      [
        '2026-11-28 14:10:00 UTC',
        'acme/prod/web',
        'rollback',
        '1.3.0 → 1.2.0',
        'dana@example.com: Rollback to web 1.2.0: bad image',
      ],
    ]);
    expect(api.sent('GET', '/api/v2/projects/shop/deployments/changes')[0]!.query.get('from')).toBe(AT);
  });
});

describe('the changes view, paged', () => {
  it('asks for more Applications by the cursor of the last page', async () => {
    const page = answer(CHANGES, 'get');
    const api = shopProject(signedIn(new FakeApi())).on(CHANGES, 'get', { ...page, nextCursor: 'page-2' });
    renderView(<ChangesView />, { api, route: '/projects/:slug/changes', at: `/projects/shop/changes?from=${AT}` });
    fireEvent.click(await screen.findByRole('button', { name: 'More Applications' }));
    await waitFor(() =>
      expect(api.sent('GET', '/api/v2/projects/shop/deployments/changes').map((c) => c.query.get('cursor'))).toEqual([
        null,
        'page-2',
      ]),
    );
  });
});

describe('the metrics view', () => {
  it('tabulates the metrics per environment and draws a bar per week and environment', async () => {
    const figures = (deployments: number, rate: number | null) => ({
      deployments,
      deploymentsPerDay: deployments / 7,
      failedDeployments: 0,
      changeFailureRate: rate,
      leadTime: { count: 1, medianSeconds: 5400, p90Seconds: 7200 },
      timeToRestore: { incidents: 0, restored: 0, medianSeconds: null },
    });
    const groups = [
      { key: 'dev', ...figures(4, 0) },
      { key: 'prod', ...figures(2, 0.5) },
    ];
    const api = shopProject(signedIn(new FakeApi())).on(
      METRICS,
      'get',
      answer(METRICS, 'get', {
        groupBy: 'environment',
        total: figures(6, 0.1667),
        groups,
        weeks: [
          { start: '2026-11-16T00:00:00.000Z', total: figures(3, 0), groups },
          { start: '2026-11-23T00:00:00.000Z', total: figures(3, 0.3333), groups },
        ],
      }),
    );
    renderView(<MetricsView />, { api, route: '/projects/:slug/metrics', at: '/projects/shop/metrics' });
    const table = await screen.findByRole('table', { name: 'Delivery metrics' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => [
        r.querySelector('th')!.textContent,
        ...within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ]);
    expect(rows.map((r) => [r[0], r[1], r[3], r[4], r[5]])).toEqual([
      ['dev', '4', '0%', '1.5h', '-'],
      ['prod', '2', '50%', '1.5h', '-'],
      ['all', '6', '16.7%', '1.5h', '-'],
    ]);
    const chart = screen.getByRole('img', { name: 'Deployments' });
    expect(chart.querySelectorAll('rect')).toHaveLength(4);
    expect([...chart.querySelectorAll('title')].map((t) => t.textContent)).toContain('2026-11-23 prod: 2');
    expect(api.sent('GET', '/api/v2/projects/shop/deployments/metrics')[0]!.query.get('groupBy')).toBe('environment');
  });
});
