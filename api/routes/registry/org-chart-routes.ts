import { auditActor } from '../../../src/iam/caller';
import type { ChartCatalog } from '../../../src/registry/chart-catalog';
import type { RouteDef } from '../../route-def';
import type { AppContext } from '../../context';
import { noContent, orgCallerOf, paramOf } from '../../request';

/** The registry caller of a route: the organization and the audit actor. */
function registryCallerOf(ctx: AppContext) {
  const caller = orgCallerOf(ctx);
  return { ...auditActor(caller), organizationId: caller.organizationId };
}

/**
 * Helm charts pushed to the organization registry (`helm push chart.tgz oci://<host>/<org slug>/charts`). A chart's
 * name is its repository inside the organization, URL-encoded when it holds a slash (`charts%2Fweb`).
 */
export function orgChartRoutes(charts: ChartCatalog): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/api/v2/org-charts',
      summary: 'Helm charts of the organization registry with their versions',
      tag: 'registry',
      access: { kind: 'organization', action: 'org.charts.read' },
      handler: async (ctx) => {
        ctx.body = { items: await charts.list(orgCallerOf(ctx).organizationId) };
      },
    },
    {
      method: 'get',
      path: '/api/v2/org-charts/:chart',
      summary: 'One chart: versions, app versions, descriptions and values schemas',
      tag: 'registry',
      access: { kind: 'organization', action: 'org.charts.read' },
      handler: async (ctx) => {
        ctx.body = await charts.get(orgCallerOf(ctx).organizationId, paramOf(ctx, 'chart'));
      },
    },
    {
      method: 'delete',
      path: '/api/v2/org-charts/:chart',
      summary: 'Delete every version of a chart (blobs go at the next garbage collection)',
      tag: 'registry',
      access: { kind: 'organization', action: 'org.charts.delete' },
      status: 204,
      handler: async (ctx) => {
        await charts.remove(registryCallerOf(ctx), paramOf(ctx, 'chart'));
        noContent(ctx);
      },
    },
    {
      method: 'delete',
      path: '/api/v2/org-charts/:chart/versions/:version',
      summary: 'Delete one version of a chart',
      tag: 'registry',
      access: { kind: 'organization', action: 'org.charts.delete' },
      status: 204,
      handler: async (ctx) => {
        await charts.removeVersion(registryCallerOf(ctx), paramOf(ctx, 'chart'), paramOf(ctx, 'version'));
        noContent(ctx);
      },
    },
  ];
}
