import { answer, type FakeApi } from './fake-api';

/** Project `shop` as the docs' walk-through has it: environments dev and prod, tenant acme, workload web. */
export const TENANT_ID = 'c0000000-0000-4000-8000-000000000001';

export function shopProject(api: FakeApi): FakeApi {
  const env = (environment: string, position: number) => {
    const [item] = answer('/api/v2/projects/{slug}/environments', 'get').items;
    return { ...item!, id: `e000000${position}-0000-4000-8000-000000000001`, environment, name: environment, position };
  };
  const [tenant] = answer('/api/v2/projects/{slug}/tenants', 'get').items;
  const [workload] = answer('/api/v2/projects/{slug}/workloads', 'get').items;
  return api
    .on('/api/v2/projects/{slug}', 'get', answer('/api/v2/projects/{slug}', 'get', { slug: 'shop', name: 'Shop' }))
    .on(
      '/api/v2/projects/{slug}/environments',
      'get',
      answer('/api/v2/projects/{slug}/environments', 'get', {
        items: [env('dev', 1), env('prod', 2)],
        nextCursor: null,
      }),
    )
    .on(
      '/api/v2/projects/{slug}/tenants',
      'get',
      answer('/api/v2/projects/{slug}/tenants', 'get', {
        items: [{ ...tenant!, id: TENANT_ID, slug: 'acme', name: 'Acme' }],
        nextCursor: null,
      }),
    )
    .on(
      '/api/v2/projects/{slug}/workloads',
      'get',
      answer('/api/v2/projects/{slug}/workloads', 'get', {
        items: [{ ...workload!, name: 'web', image: { repository: 'registry.example/web', tag: '1.5.0' } }],
        nextCursor: null,
      }),
    )
    .on('/api/v2/projects/{slug}/pins', 'get', answer('/api/v2/projects/{slug}/pins', 'get', { items: [] }))
    .on('/api/v2/projects/{slug}/freezes', 'get', answer('/api/v2/projects/{slug}/freezes', 'get', { items: [] }))
    .on(
      '/api/v2/projects/{slug}/rollouts',
      'get',
      answer('/api/v2/projects/{slug}/rollouts', 'get', { items: [], nextCursor: null }),
    )
    .on(
      '/api/v2/projects/{slug}/releases',
      'get',
      answer('/api/v2/projects/{slug}/releases', 'get', { items: [], nextCursor: null }),
    );
}
