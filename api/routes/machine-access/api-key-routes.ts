import type { ApiKeyCreateRequest } from '../../request-types.generated';
import type { ApiKeyService } from '../../../src/machine-access/api-key-service';
import type { RouteDef } from '../../route-def';
import { bodyOf, created, noContent, orgCallerOf, paramOf } from '../../request';

const KEYS = '/api/v2/projects/:slug/api-keys';

/** Project API keys: the value is in the creation answer only. */
export function apiKeyRoutes(keys: ApiKeyService): RouteDef[] {
  return [
    {
      method: 'get',
      path: KEYS,
      summary: "The project's API keys: name, scopes, creation and last use (never the value)",
      tag: 'api-keys',
      access: { kind: 'organization', action: 'projects.{slug}.api-keys.read' },
      handler: async (ctx) => {
        ctx.body = await keys.list(orgCallerOf(ctx), paramOf(ctx, 'slug'));
      },
    },
    {
      method: 'post',
      path: KEYS,
      summary: 'Create a project API key; the `key` value is shown once',
      tag: 'api-keys',
      access: { kind: 'organization', action: 'projects.{slug}.api-keys.create' },
      body: 'api-key-create',
      status: 201,
      handler: async (ctx) =>
        created(ctx, await keys.create(orgCallerOf(ctx), paramOf(ctx, 'slug'), bodyOf<ApiKeyCreateRequest>(ctx))),
    },
    {
      method: 'delete',
      path: `${KEYS}/:id`,
      summary: 'Delete a project API key; its next request fails',
      tag: 'api-keys',
      access: { kind: 'organization', action: 'projects.{slug}.api-keys.delete' },
      handler: async (ctx) => {
        await keys.delete(orgCallerOf(ctx), paramOf(ctx, 'slug'), paramOf(ctx, 'id'));
        noContent(ctx);
      },
    },
  ];
}
