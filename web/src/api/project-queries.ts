import { useQuery } from '@tanstack/react-query';
import { api, ok } from './client';
import type { Deployment } from './models';

const path = (slug: string) => ({ params: { path: { slug } } });

/** Everything the project views read about one project, each a cached query that mutations invalidate by prefix. */
export function useProjectParts(slug: string) {
  const project = useQuery({
    queryKey: ['project', slug],
    queryFn: () => ok(api.GET('/api/v2/projects/{slug}', path(slug))),
  });
  const environments = useQuery({
    queryKey: ['project', slug, 'environments'],
    queryFn: () => ok(api.GET('/api/v2/projects/{slug}/environments', path(slug))),
  });
  const tenants = useQuery({
    queryKey: ['project', slug, 'tenants'],
    queryFn: () => ok(api.GET('/api/v2/projects/{slug}/tenants', path(slug))),
  });
  const workloads = useQuery({
    queryKey: ['project', slug, 'workloads'],
    queryFn: () => ok(api.GET('/api/v2/projects/{slug}/workloads', path(slug))),
  });
  return { project, environments, tenants, workloads };
}

/**
 * Every page of the deployments matrix, now or as it was at an instant (the server caps a page; a project of 1,000
 * Applications takes a few).
 */
async function allDeployments(slug: string, at: string | null): Promise<Deployment[]> {
  const items: Deployment[] = [];
  let cursor: string | undefined;
  do {
    const page = await ok(
      api.GET('/api/v2/projects/{slug}/deployments', {
        params: { path: { slug }, query: { cursor, ...(at ? { at } : {}) } },
      }),
    );
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return items;
}

/** What is in force and in flight: pins, freezes, recent releases and rollouts (polled while the page is open). */
export function useProjectActivity(slug: string) {
  const pins = useQuery({
    queryKey: ['project', slug, 'pins'],
    queryFn: () => ok(api.GET('/api/v2/projects/{slug}/pins', path(slug))),
  });
  const freezes = useQuery({
    queryKey: ['project', slug, 'freezes'],
    queryFn: () => ok(api.GET('/api/v2/projects/{slug}/freezes', path(slug))),
  });
  const releases = useQuery({
    queryKey: ['project', slug, 'releases'],
    refetchInterval: 3000,
    queryFn: () => ok(api.GET('/api/v2/projects/{slug}/releases', { params: { path: { slug }, query: {} } })),
  });
  const rollouts = useQuery({
    queryKey: ['project', slug, 'rollouts'],
    refetchInterval: 3000,
    queryFn: () => ok(api.GET('/api/v2/projects/{slug}/rollouts', path(slug))),
  });
  return { pins, freezes, releases, rollouts };
}

/**
 * What the project matrix adds: promotions in flight and the live versions of the deployments matrix (polled), or the
 * matrix as it was at `at` (history does not change: not polled).
 */
export function useProjectLive(slug: string, at: string | null = null) {
  const promotions = useQuery({
    queryKey: ['project', slug, 'promotions'],
    refetchInterval: 3000,
    queryFn: () => ok(api.GET('/api/v2/projects/{slug}/promotions', { params: { path: { slug }, query: {} } })),
  });
  const deployments = useQuery({
    queryKey: ['project', slug, 'deployments', at],
    refetchInterval: at ? false : 3000,
    queryFn: () => allDeployments(slug, at),
  });
  return { promotions, deployments };
}
