import type { WatchRegistryCreateRequest } from '../../request-types.generated';
import type { WatchRegistryService } from '../../../src/watch/watch-registry-service';
import type { RouteDef } from '../../route-def';
import { bodyOf, created, noContent, orgCallerOf, paramOf } from '../../request';

/** External registries watch subscriptions can follow (docs/automation.md): members read, admins change them. */
export function watchRegistryRoutes(registries: WatchRegistryService): RouteDef[] {
  const base = '/api/v2/watch/registries';
  const tag = 'watch';
  return [
    {
      method: 'get',
      path: base,
      summary: "The organization's external registries (credentials never shown)",
      tag,
      access: { kind: 'organization', action: 'org.watch-registries.read' },
      handler: async (ctx) => {
        ctx.body = await registries.list(orgCallerOf(ctx));
      },
    },
    {
      method: 'post',
      path: base,
      summary: 'Add an external OCI registry (credentials sealed at rest); its poll workflow starts',
      tag,
      access: { kind: 'organization', action: 'org.watch-registries.create' },
      body: 'watch-registry-create',
      status: 201,
      handler: async (ctx) => {
        created(ctx, await registries.create(orgCallerOf(ctx), bodyOf<WatchRegistryCreateRequest>(ctx)));
      },
    },
    {
      method: 'delete',
      path: `${base}/:id`,
      summary: 'Remove an external registry without subscriptions (409 while some watch it)',
      tag,
      access: { kind: 'organization', action: 'org.watch-registries.delete' },
      handler: async (ctx) => {
        await registries.delete(orgCallerOf(ctx), paramOf(ctx, 'id'));
        noContent(ctx);
      },
    },
  ];
}
