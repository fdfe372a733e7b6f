import type { ApiServices } from '../src/runtime/api-services';
import type { RouteDef } from './route-def';
import { auditRoutes } from './routes/audit/audit-routes';
import { authRoutes } from './routes/auth/auth-routes';
import { iamRoutes } from './routes/iam/iam-routes';
import { k8sRoutes } from './routes/k8s/k8s-routes';
import { invitationRoutes } from './routes/orgs/invitation-routes';
import { memberMfaRoutes } from './routes/orgs/member-mfa-routes';
import { organizationRoutes } from './routes/orgs/organization-routes';
import { permissionRoutes } from './routes/permissions/permission-routes';
import { platformConfigRoutes } from './routes/platform-config/platform-config-routes';
import { diagnosticsRoutes } from './routes/platform/diagnostics-routes';
import { healthRoutes } from './routes/platform/health-routes';
import { buildOpenApi, openApiRoute } from './routes/platform/openapi-route';
import { apiDocsRoutes } from './routes/platform/api-docs-routes';
import { planAdminRoutes } from './routes/plans/plan-admin-routes';
import { teamRoutes } from './routes/teams/team-routes';
import { projectRoutes } from './routes/projects/project-routes';
import { gitopsRoutes } from './routes/gitops/gitops-routes';
import { apiKeyRoutes } from './routes/machine-access/api-key-routes';
import { serviceAccountRoutes } from './routes/machine-access/service-account-routes';
import { orgChartRoutes } from './routes/registry/org-chart-routes';
import { catalogRoutes } from './routes/catalog/catalog-routes';
import { releaseRoutes } from './routes/releases/release-routes';
import { promotionRoutes } from './routes/promotions/promotion-routes';
import { rollbackRoutes } from './routes/releases/rollback-routes';
import { policyRoutes } from './routes/policies/policy-routes';
import { approvalPolicyRoutes } from './routes/approval-policies/approval-policy-routes';
import { channelRoutes } from './routes/notifications/channel-routes';
import { inboxRoutes } from './routes/notifications/inbox-routes';
import { escalationRoutes } from './routes/notifications/escalation-routes';
import { smtpRoutes } from './routes/notifications/smtp-routes';
import { agentBindingRoutes } from './routes/clusters/agent-binding-routes';
import { clusterRoutes } from './routes/clusters/cluster-routes';
import { commandRoutes } from './routes/clusters/command-routes';
import { freezeRoutes } from './routes/freezes/freeze-routes';
import { breakGlassRoutes } from './routes/break-glass/break-glass-routes';
import { webhookRoutes } from './routes/webhooks/webhook-routes';
import { deploymentRoutes } from './routes/deployments/deployment-routes';

export const API_VERSION = '0.1.0';

/**
 * The full route table, one entry per domain: the OpenAPI document, the role matrix test and the router all read
 * this one list. A new domain adds its route group here and its service in src/runtime/domain-services.ts.
 */
export function routeTable(services: ApiServices): RouteDef[] {
  const { config } = services;
  const pageMax = config.orgs.pageMax;
  const routes: RouteDef[] = [
    ...healthRoutes(services.readiness, config.exposeMetrics ? services.metrics.registry : null),
    ...auditRoutes(services.audit, config.auditPageMax),
    ...diagnosticsRoutes(services),
    ...k8sRoutes(services),
    ...authRoutes(services.identity),
    ...organizationRoutes(services.orgs, pageMax),
    ...memberMfaRoutes(services.memberMfa),
    ...invitationRoutes(services.invitations, pageMax, services.identity.sessions),
    ...teamRoutes(services.teams, pageMax),
    ...permissionRoutes(services.grants, pageMax),
    ...approvalPolicyRoutes(services.approvalPolicies, pageMax),
    ...iamRoutes({ iam: services.iamViews, audit: services.audit, auditPageMax: config.auditPageMax }),
    ...platformConfigRoutes(services, pageMax),
    ...planAdminRoutes(services),
    ...projectRoutes({ ...services.projects, removal: services.removal }, pageMax),
    ...gitopsRoutes(services.gitops),
    ...releaseRoutes(services.releases, pageMax),
    ...promotionRoutes(services.promotions, pageMax),
    ...rollbackRoutes(services.releases, services.pins, services.projects.tenants),
    ...deploymentRoutes(services.deployments, pageMax),
    ...policyRoutes(services.policies, pageMax),
    ...apiKeyRoutes(services.apiKeys),
    ...serviceAccountRoutes(services.serviceAccounts),
    ...orgChartRoutes(services.charts),
    ...catalogRoutes(
      services.kustomizeBases,
      { path: '/api/v2/org-kustomize-bases', actionPrefix: 'org.kustomize-bases', label: 'kustomize base' },
      pageMax,
    ),
    ...catalogRoutes(
      services.manifestBundles,
      { path: '/api/v2/org-manifest-bundles', actionPrefix: 'org.manifest-bundles', label: 'manifest bundle' },
      pageMax,
    ),
    ...channelRoutes(services.notifications.channels, pageMax),
    ...smtpRoutes(services.notifications.smtp),
    ...inboxRoutes(services.notifications.inbox, pageMax),
    ...escalationRoutes(services.notifications.escalations, pageMax),
    ...clusterRoutes(services.clusters.clusters, pageMax),
    ...commandRoutes(services.clusters.commands, pageMax),
    ...agentBindingRoutes(services.clusters.bindings, services.removal, pageMax),
    ...freezeRoutes(services.freezes),
    ...breakGlassRoutes(services.breakGlass, pageMax),
    ...webhookRoutes(services.webhooks),
  ];
  let cached: Record<string, unknown> | undefined;
  routes.push(openApiRoute(() => (cached ??= buildOpenApi(routes, services.schemas, API_VERSION))));
  routes.push(...apiDocsRoutes());
  return routes;
}
