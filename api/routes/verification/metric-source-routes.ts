import type { MetricSourceCreateRequest, MetricSourceUpdateRequest } from '../../request-types.generated';
import type { MetricSourceService } from '../../../src/verification/metric-source-service';
import type { RouteDef } from '../../route-def';
import { bodyOf, created, noContent, orgCallerOf, pageOf, paramOf } from '../../request';

const BASE = '/api/v2/metric-sources';
const access = (verb: string) => ({ kind: 'organization', action: `org.metric-sources.${verb}` }) as const;

/** The organization's metric sources, queried by rollout verification (the bearer token is never answered). */
export function metricSourceRoutes(sources: MetricSourceService, pageMax: number): RouteDef[] {
  const one = `${BASE}/:id`;
  return [
    {
      method: 'get',
      path: BASE,
      summary: 'Metric sources of the organization, by name (tokens never shown: `hasToken`)',
      tag: 'verification',
      access: access('read'),
      query: 'org-page-query',
      handler: async (ctx) => {
        ctx.body = await sources.list(orgCallerOf(ctx), pageOf(ctx, pageMax));
      },
    },
    {
      method: 'post',
      path: BASE,
      summary: 'Add a metric source (its URL checked like every outbound target)',
      tag: 'verification',
      access: access('create'),
      body: 'metric-source-create',
      status: 201,
      handler: async (ctx) =>
        created(ctx, await sources.create(orgCallerOf(ctx), bodyOf<MetricSourceCreateRequest>(ctx))),
    },
    {
      method: 'get',
      path: one,
      summary: 'One metric source',
      tag: 'verification',
      access: access('read'),
      handler: async (ctx) => {
        ctx.body = await sources.get(orgCallerOf(ctx), paramOf(ctx, 'id'));
      },
    },
    {
      method: 'patch',
      path: one,
      summary: "Change a metric source's name, URL or token (null removes the token)",
      tag: 'verification',
      access: access('update'),
      body: 'metric-source-update',
      handler: async (ctx) => {
        ctx.body = await sources.update(orgCallerOf(ctx), paramOf(ctx, 'id'), bodyOf<MetricSourceUpdateRequest>(ctx));
      },
    },
    {
      method: 'delete',
      path: one,
      summary: 'Delete a metric source (checks naming it then fail to measure)',
      tag: 'verification',
      access: access('delete'),
      handler: async (ctx) => {
        await sources.delete(orgCallerOf(ctx), paramOf(ctx, 'id'));
        noContent(ctx);
      },
    },
  ];
}
