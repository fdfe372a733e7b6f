import type { Page, Route } from 'playwright-core';

const ORG = { organizationId: 'o1', slug: 'acme', name: 'Acme', role: 'owner' };
const USER = { id: 'u1', email: 'bench@example.test', name: 'Bench' };

export interface FakeData {
  environments: string[];
  tenants: string[];
  services: string[];
  compareItems: number;
}

const page = <T>(items: T[]) => ({ items, nextCursor: null });

function diff(n: number) {
  const lines = Array.from({ length: 6 }, (_, i) => ` line ${i} of item ${n}`);
  return (
    ['--- a/x', '+++ b/x', '@@ -1,7 +1,7 @@', ...lines, `-  image: web:1.${n}.0`, `+  image: web:2.${n}.0`].join('\n') +
    '\n'
  );
}

/** Answers for every API call the project views make, built from `data` (the bench measures rendering, not the API). */
function answers(data: FakeData): Record<string, unknown> {
  return {
    '/api/v1/auth/refresh': { accessToken: 'bench', user: USER, organization: { id: 'o1', ...ORG } },
    '/api/v1/auth/me': {
      user: USER,
      organization: ORG,
      memberships: [ORG],
      mfa: { state: 'verified', totpEnabled: true, recoveryCodesRemaining: 8 },
    },
    '/api/v2/projects/bench': { id: 'p1', slug: 'bench', name: 'Bench' },
    '/api/v2/projects/bench/environments': page(
      data.environments.map((environment) => ({ environment, kubernetesVersion: '1.31' })),
    ),
    '/api/v2/projects/bench/tenants': page(data.tenants.map((slug, i) => ({ id: `t${i}`, slug, name: slug }))),
    '/api/v2/projects/bench/workloads': page(
      data.services.map((name) => ({ name, image: { repository: `registry.example.com/${name}`, tag: '1.0.0' } })),
    ),
    '/api/v2/projects/bench/pins': page([
      {
        tenant: data.tenants[0],
        tenantId: 't0',
        environment: data.environments[0],
        reason: 'bench',
        releaseId: null,
        pinnedBy: 'bench',
      },
    ]),
    '/api/v2/projects/bench/freezes': { items: [] },
    '/api/v2/projects/bench/releases': page([]),
    '/api/v2/projects/bench/promotions': page([]),
    // Every Application deployed and reported: the matrix shows a live version in each of its cells.
    '/api/v2/projects/bench/deployments': page(
      data.tenants.flatMap((tenant) =>
        data.environments.flatMap((environment) =>
          data.services.map((service) => ({
            tenant,
            environment,
            service,
            desired: { version: '1.0.0', revision: 'a'.repeat(40), since: null },
            live: {
              version: '1.0.0',
              revision: 'a'.repeat(40),
              syncStatus: 'Synced',
              healthStatus: 'Healthy',
              reportedAt: null,
            },
            current: true,
          })),
        ),
      ),
    ),
    '/api/v2/k8s/versions': { versions: ['1.31'] },
    '/api/v2/projects/bench/compare': {
      commit: 'f'.repeat(40),
      from: data.environments[0],
      to: data.environments[1],
      items: Array.from({ length: data.compareItems }, (_, n) => ({
        tenant: `tenant-${Math.floor(n / data.services.length)}`,
        service: data.services[n % data.services.length],
        presentIn: { from: true, to: true },
        differences: [
          { type: 'image', from: `web:1.${n}.0`, to: `web:2.${n}.0` },
          { type: 'manifests', diff: diff(n) },
        ],
      })),
    },
  };
}

/**
 * Serves the API from memory through the browser's request interception. `onAnswered` hears each path as its answer
 * is handed to the page, so the bench can time rendering from the moment the data arrived.
 */
export async function fakeApi(target: Page, data: FakeData, onAnswered: (path: string) => void): Promise<void> {
  const table = answers(data);
  await target.route('**/api/**', async (route: Route) => {
    const path = new URL(route.request().url()).pathname;
    const body = table[path];
    await route.fulfill(
      body === undefined
        ? { status: 404, contentType: 'application/json', body: '{"error":"not found"}' }
        : { status: 200, contentType: 'application/json', body: JSON.stringify(body) },
    );
    onAnswered(path);
  });
}
