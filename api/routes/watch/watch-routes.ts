import type { WatchDiscoveriesQueryRequest, WatchSubscriptionCreateRequest } from '../../request-types.generated';
import type { SubscriptionInput, WatchService } from '../../../src/watch/watch-service';
import type { RouteDef } from '../../route-def';
import { bodyOf, created, noContent, orgCallerOf, pageOf, paramOf, queryOf } from '../../request';

/** Watch subscriptions of a project's workloads (docs/automation.md): viewers read, members change them. */
export function watchRoutes(watch: WatchService, pageMax: number): RouteDef[] {
  const base = '/api/v2/projects/:slug/watch/subscriptions';
  const tag = 'watch';
  return [
    {
      method: 'get',
      path: base,
      summary: "The project's watch subscriptions: repository, policy, environments and tenants updated automatically",
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.watch.read' },
      handler: async (ctx) => {
        ctx.body = await watch.list(orgCallerOf(ctx), paramOf(ctx, 'slug'));
      },
    },
    {
      method: 'post',
      path: base,
      summary: 'Subscribe a workload to new versions of a repository of the organization registry under a policy',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.watch.update' },
      body: 'watch-subscription-create',
      status: 201,
      handler: async (ctx) => {
        const body = bodyOf<WatchSubscriptionCreateRequest>(ctx) as SubscriptionInput;
        created(ctx, await watch.create(orgCallerOf(ctx), paramOf(ctx, 'slug'), body));
      },
    },
    {
      method: 'get',
      path: '/api/v2/projects/:slug/watch/discoveries',
      summary:
        "Versions found for the project's subscriptions, newest first: what each policy chose and, per target, verified, syncing, replaced or why not updated (pages)",
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.watch.read' },
      query: 'watch-discoveries-query',
      handler: async (ctx) => {
        const q = queryOf(ctx) as WatchDiscoveriesQueryRequest;
        ctx.body = await watch.discoveries(
          orgCallerOf(ctx),
          paramOf(ctx, 'slug'),
          { workload: q.workload },
          pageOf(ctx, pageMax),
        );
      },
    },
    {
      method: 'delete',
      path: `${base}/:id`,
      summary: 'Delete a watch subscription (discoveries already recorded stay)',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.watch.update' },
      handler: async (ctx) => {
        await watch.delete(orgCallerOf(ctx), paramOf(ctx, 'slug'), paramOf(ctx, 'id'));
        noContent(ctx);
      },
    },
  ];
}
