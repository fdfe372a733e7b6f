import type {
  DeploymentChangesQueryRequest,
  DeploymentMetricsQueryRequest,
  DeploymentSoakUpdateRequest,
  DeploymentsQueryRequest,
} from '../../request-types.generated';
import type { createDeliveryMetrics } from '../../../src/deployments/delivery-metrics';
import type { createDeploymentHistory } from '../../../src/deployments/deployment-history-service';
import type { DeploymentService } from '../../../src/deployments/deployment-service';
import type { RouteDef } from '../../route-def';
import { bodyOf, orgCallerOf, pageOf, paramOf, queryOf } from '../../request';

/** What runs where: the deployments matrix of a project and the soak time of its environments (docs/releases.md). */
export function deploymentRoutes(
  deployments: DeploymentService,
  history: ReturnType<typeof createDeploymentHistory>,
  metrics: ReturnType<typeof createDeliveryMetrics>,
  pageMax: number,
): RouteDef[] {
  const tag = 'deployments';
  const soak = '/api/v2/projects/:slug/soak-times/:environment';
  return [
    {
      method: 'get',
      path: '/api/v2/projects/:slug/deployments',
      summary:
        'Tenants x environments x services: desired and live version, sync, health, since when and by what (filters, pages); `at`: as it was at that instant',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.deployments.read' },
      query: 'deployments-query',
      handler: async (ctx) => {
        const q = queryOf(ctx) as DeploymentsQueryRequest;
        const filter = { tenant: q.tenant, environment: q.environment, service: q.service };
        const [caller, slug, page] = [orgCallerOf(ctx), paramOf(ctx, 'slug'), pageOf(ctx, pageMax)];
        ctx.body =
          q.at === undefined
            ? await deployments.matrix(caller, slug, filter, page)
            : await history.matrixAt(caller, slug, filter, page, q.at);
      },
    },
    {
      method: 'get',
      path: '/api/v2/projects/:slug/deployments/changes',
      summary:
        'Per Application, what changed between two instants: versions from -> to with cause, actor, audit ids and commit; health transitions (pages)',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.deployments.read' },
      query: 'deployment-changes-query',
      handler: async (ctx) => {
        const q = queryOf(ctx) as DeploymentChangesQueryRequest;
        const filter = { tenant: q.tenant, environment: q.environment, service: q.service };
        const window = { from: q.from, to: q.to };
        ctx.body = await history.changes(orgCallerOf(ctx), paramOf(ctx, 'slug'), filter, pageOf(ctx, pageMax), window);
      },
    },
    {
      method: 'get',
      path: '/api/v2/projects/:slug/deployments/metrics',
      summary:
        'Delivery metrics over a window: deployment frequency, lead time for changes, change failure rate, time to restore; per environment, tenant or service and per week',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.deployments.read' },
      query: 'deployment-metrics-query',
      handler: async (ctx) => {
        const q = queryOf(ctx) as DeploymentMetricsQueryRequest;
        const filter = { tenant: q.tenant, environment: q.environment, service: q.service };
        ctx.body = await metrics.metrics(orgCallerOf(ctx), paramOf(ctx, 'slug'), filter, q);
      },
    },
    {
      method: 'get',
      path: soak,
      summary: 'How long a version must stay verified in the environment before a promotion may take it on',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.deployments.read' },
      handler: async (ctx) => {
        ctx.body = await deployments.soakTime(orgCallerOf(ctx), paramOf(ctx, 'slug'), paramOf(ctx, 'environment'));
      },
    },
    {
      method: 'put',
      path: soak,
      summary: 'Set the soak time of the environment (0: none)',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.deployments.soak.update' },
      body: 'deployment-soak-update',
      handler: async (ctx) => {
        const body = bodyOf<DeploymentSoakUpdateRequest>(ctx);
        ctx.body = await deployments.setSoakTime(
          orgCallerOf(ctx),
          paramOf(ctx, 'slug'),
          paramOf(ctx, 'environment'),
          body.seconds,
        );
      },
    },
  ];
}
