import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { CompareView } from '../src/views/compare/compare-view';
import { answer, FakeApi, signedIn } from './fake-api';
import { shopProject } from './project-fixtures';
import { renderView } from './render-view';

const COMPARE = '/api/v2/projects/{slug}/compare' as const;

function compareApi() {
  return shopProject(signedIn(new FakeApi())).on(
    COMPARE,
    'get',
    answer(COMPARE, 'get', {
      from: 'dev',
      to: 'prod',
      current: 'prod',
      proposed: 'dev',
      commit: '0123456789abcdef0123',
      items: [
        {
          tenant: 'acme',
          service: 'web',
          presentIn: { from: true, to: true },
          differences: [
            { type: 'image', from: 'registry.example/web:1.6.0', to: 'registry.example/web:1.5.0' },
            { type: 'replicas', from: 3, to: 2 },
          ],
        },
        { tenant: 'acme', service: 'worker', presentIn: { from: true, to: false }, differences: [] },
      ],
    }),
  );
}

describe('compare screen', () => {
  // jsdom lays nothing out: give the virtualised list a viewport (800 px) and each item a height, as a browser would.
  const sizes = ['clientHeight', 'clientWidth', 'offsetHeight'] as const;
  const saved = sizes.map((name) => Object.getOwnPropertyDescriptor(HTMLElement.prototype, name));
  beforeAll(() => {
    const size = (name: (typeof sizes)[number]) =>
      function (this: HTMLElement) {
        if (name === 'clientWidth') return 1000;
        return this.classList.contains('virtual-scroll') ? 800 : 120;
      };
    for (const name of sizes)
      Object.defineProperty(HTMLElement.prototype, name, { configurable: true, get: size(name) });
  });
  afterAll(() => {
    sizes.forEach((name, i) => {
      const descriptor = saved[i];
      if (descriptor) Object.defineProperty(HTMLElement.prototype, name, descriptor);
    });
  });

  it('reads current (the target as it runs) -> proposed (the source) for every difference', async () => {
    const api = compareApi();
    renderView(<CompareView />, {
      api,
      route: '/projects/:slug/compare',
      at: '/projects/shop/compare?from=dev&to=prod',
    });

    expect(await screen.findByRole('status')).toHaveTextContent(
      '2 tenant and service pairs · prod (current) → dev (proposed) at 0123456789ab',
    );
    const web = screen.getByRole('article', { name: 'acme / web' });
    expect(web).toHaveTextContent(
      'image: registry.example/web:1.5.0 (prod, current) → registry.example/web:1.6.0 (dev, proposed)',
    );
    expect(web).toHaveTextContent('replicas: 2 (prod, current) → 3 (dev, proposed)');
    expect(screen.getByRole('article', { name: 'acme / worker' })).toHaveTextContent('only in dev');

    const [call] = api.sent('GET', '/api/v2/projects/shop/compare');
    expect(call!.query.get('from')).toBe('dev');
    expect(call!.query.get('to')).toBe('prod');
    expect(call!.query.get('changedOnly')).toBe('true');
  });

  it('keeps both of two filter changes that come before the router re-renders', async () => {
    const api = compareApi();
    renderView(<CompareView />, {
      api,
      route: '/projects/:slug/compare',
      at: '/projects/shop/compare?from=dev&to=prod',
    });
    await screen.findByRole('status');
    // One act: the difference kind and the switch both change before the view renders again (a fast hand in a browser).
    act(() => {
      fireEvent.change(screen.getByLabelText('Difference', { exact: true }), { target: { value: 'image' } });
      fireEvent.click(screen.getByRole('switch', { name: 'Changed only' }));
    });
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Changed only' })).not.toBeChecked());
    await waitFor(() => {
      const last = api.sent('GET', '/api/v2/projects/shop/compare').at(-1)!;
      expect(last.query.get('changedOnly')).toBe('false');
      expect(last.query.get('type')).toBe('image');
    });
  });
});
