import type { RouteDef } from '../../route-def';
import { orgCallerOf } from '../../request';
import type { ExampleService } from '../../../src/domain-template/example-service';

/** The template's routes (copied by `npm run new-domain` with src/domain-template): thin handlers that call the service with the caller (api/request.ts). */
export function exampleRoutes(service: ExampleService): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/api/v2/example-items',
      summary: 'List the example items of the organization',
      tag: 'example',
      access: { kind: 'organization', action: 'org.example.read' },
      handler: async (ctx) => {
        ctx.body = { items: await service.list(orgCallerOf(ctx)) };
      },
    },
  ];
}
