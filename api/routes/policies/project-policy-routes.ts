import type { PolicyListQueryRequest } from '../../request-types.generated';
import type { Page, PageRequest } from '../../../src/db/pagination';
import type { OrgCaller } from '../../../src/iam/caller';
import type { AppContext } from '../../context';
import type { RouteDef } from '../../route-def';
import { created, noContent, orgCallerOf, pageOf, paramOf, queryOf } from '../../request';

/** What a service of project-owned policies (manifest policies, approval policies) offers its routes. */
export interface ProjectPolicyService<Body, View> {
  list(caller: OrgCaller, filter: { project?: string }, page: PageRequest): Promise<Page<View>>;
  get(caller: OrgCaller, id: string): Promise<View>;
  create(caller: OrgCaller, body: Body): Promise<View>;
  replace(caller: OrgCaller, id: string, body: Body): Promise<View>;
  delete(caller: OrgCaller, id: string): Promise<void>;
}

/** Where one kind lives: its path, actions (`<prefix>.read|create|update|delete`), body schema and readable name. */
export interface ProjectPolicySpec<Body> {
  path: string;
  actionPrefix: string;
  tag: string;
  /** Singular and plural names in summaries, e.g. `approval policy`, `Approval policies`. */
  label: string;
  plural: string;
  bodySchema: string;
  /** The body as the service takes it (the schema validated it before the handler). */
  body(ctx: AppContext): Body;
}

/** The same five routes for both kinds: list by project (cursor), create, read, replace (same project), delete. */
export function projectPolicyRoutes<Body, View>(
  service: ProjectPolicyService<Body, View>,
  spec: ProjectPolicySpec<Body>,
  pageMax: number,
): RouteDef[] {
  const { path, actionPrefix, tag, label } = spec;
  const one = `${path}/:id`;
  const action = (verb: string) => ({ kind: 'organization', action: `${actionPrefix}.${verb}` }) as const;
  return [
    {
      method: 'get',
      path,
      summary: `${spec.plural} of the organization's projects, by name (filter: project)`,
      tag,
      access: action('read'),
      query: 'policy-list-query',
      handler: async (ctx) => {
        const { project } = queryOf(ctx) as PolicyListQueryRequest;
        ctx.body = await service.list(orgCallerOf(ctx), { project }, pageOf(ctx, pageMax));
      },
    },
    {
      method: 'post',
      path,
      summary: `Create a ${label} of a project`,
      tag,
      access: action('create'),
      body: spec.bodySchema,
      status: 201,
      handler: async (ctx) => created(ctx, await service.create(orgCallerOf(ctx), spec.body(ctx))),
    },
    {
      method: 'get',
      path: one,
      summary: `One ${label}`,
      tag,
      access: action('read'),
      handler: async (ctx) => {
        ctx.body = await service.get(orgCallerOf(ctx), paramOf(ctx, 'id'));
      },
    },
    {
      method: 'put',
      path: one,
      summary: `Replace a ${label} (it stays in its project)`,
      tag,
      access: action('update'),
      body: spec.bodySchema,
      handler: async (ctx) => {
        ctx.body = await service.replace(orgCallerOf(ctx), paramOf(ctx, 'id'), spec.body(ctx));
      },
    },
    {
      method: 'delete',
      path: one,
      summary: `Delete a ${label}`,
      tag,
      access: action('delete'),
      handler: async (ctx) => {
        await service.delete(orgCallerOf(ctx), paramOf(ctx, 'id'));
        noContent(ctx);
      },
    },
  ];
}
