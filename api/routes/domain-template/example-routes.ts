import type { RouteDef } from '../../route-def';
import { orgCallerOf, pageOf } from '../../request';
import type { ExampleService } from '../../../src/domain-template/example-service';

/** The example domain's routes, as `npm run new-domain` writes them: thin handlers that call the service with the caller (api/request.ts). */
export function exampleRoutes(service: ExampleService, pageMax: number): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/api/v2/example-items',
      summary: 'The example items of the organization, by name',
      tag: 'example',
      access: { kind: 'organization', action: 'org.example.read' },
      query: 'org-page-query',
      handler: async (ctx) => {
        ctx.body = await service.list(orgCallerOf(ctx), pageOf(ctx, pageMax));
      },
    },
  ];
}
