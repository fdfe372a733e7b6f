import type { CatalogUploadRequest } from '../../request-types.generated';
import type { CatalogService } from '../../../src/catalog/catalog-service';
import type { RouteDef } from '../../route-def';
import type { AppContext } from '../../context';
import { bodyOf, noContent, orgCallerOf, pageOf, paramOf, queryOf } from '../../request';

/** Where one catalog kind lives: its path, its actions (`<prefix>.read|push|delete`) and its name in summaries. */
export interface CatalogRouteSpec {
  path: string;
  actionPrefix: string;
  label: string;
}

/**
 * Versioned kustomize bases or manifest bundles of the organization, uploaded as JSON (`name`, `version`, `files`).
 * An upload the validation refuses answers 422 with the results and stores nothing.
 */
export function catalogRoutes(service: CatalogService, spec: CatalogRouteSpec, pageMax: number): RouteDef[] {
  const { path, actionPrefix, label } = spec;
  const one = `${path}/:artifact`;
  const version = `${one}/versions/:version`;
  const tag = 'catalog';
  const read = { kind: 'organization', action: `${actionPrefix}.read` } as const;
  const remove = { kind: 'organization', action: `${actionPrefix}.delete` } as const;
  const removeIn = async (ctx: AppContext, v?: string) => {
    await service.remove(orgCallerOf(ctx), paramOf(ctx, 'artifact'), v);
    noContent(ctx);
  };
  return [
    {
      method: 'get',
      path,
      summary: `Versions of the organization's ${label}s, by name then version (\`name\` filters)`,
      tag,
      access: read,
      query: 'catalog-list-query',
      handler: async (ctx) => {
        ctx.body = await service.list(orgCallerOf(ctx), { name: queryOf(ctx).name }, pageOf(ctx, pageMax));
      },
    },
    {
      method: 'post',
      path,
      summary: `Upload a ${label} version (validated first: 422 with the results and nothing stored on errors)`,
      tag,
      access: { kind: 'organization', action: `${actionPrefix}.push` },
      body: 'catalog-upload',
      status: 201,
      handler: async (ctx) => {
        const { stored, validation } = await service.upload(orgCallerOf(ctx), bodyOf<CatalogUploadRequest>(ctx));
        ctx.status = stored ? 201 : 422;
        ctx.body = stored ? { ...stored, validation } : { error: 'validation failed: nothing was stored', validation };
      },
    },
    {
      method: 'get',
      path: version,
      summary: `One ${label} version with its files`,
      tag,
      access: read,
      handler: async (ctx) => {
        ctx.body = await service.get(orgCallerOf(ctx), paramOf(ctx, 'artifact'), paramOf(ctx, 'version'));
      },
    },
    {
      method: 'delete',
      path: one,
      summary: `Delete every version of a ${label}`,
      tag,
      access: remove,
      status: 204,
      handler: (ctx) => removeIn(ctx),
    },
    {
      method: 'delete',
      path: version,
      summary: `Delete one version of a ${label}`,
      tag,
      access: remove,
      status: 204,
      handler: (ctx) => removeIn(ctx, paramOf(ctx, 'version')),
    },
  ];
}
