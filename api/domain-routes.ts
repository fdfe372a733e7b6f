import type { ApiServices } from '../src/runtime/api-services';
import type { RouteDef } from './route-def';
import { approvalPolicyRoutes } from './routes/approval-policies/approval-policy-routes';
import { auditRoutes } from './routes/audit/audit-routes';
import { breakGlassRoutes } from './routes/break-glass/break-glass-routes';
import { catalogRoutes } from './routes/catalog/catalog-routes';
import { clusterRoutes } from './routes/clusters/cluster-routes';
import { commandRoutes } from './routes/clusters/command-routes';
import { agentBindingRoutes } from './routes/clusters/agent-binding-routes';
import { k8sRoutes } from './routes/k8s/k8s-routes';
import { deploymentRoutes } from './routes/deployments/deployment-routes';
import { diagnosticsRoutes } from './routes/platform/diagnostics-routes';
import { freezeRoutes } from './routes/freezes/freeze-routes';
import { gitopsRoutes } from './routes/gitops/gitops-routes';
import { authRoutes } from './routes/auth/auth-routes';
import { invitationRoutes } from './routes/orgs/invitation-routes';
import { apiKeyRoutes } from './routes/machine-access/api-key-routes';
import { serviceAccountRoutes } from './routes/machine-access/service-account-routes';
import { whoamiRoutes } from './routes/machine-access/whoami-routes';
import { channelRoutes } from './routes/notifications/channel-routes';
import { smtpRoutes } from './routes/notifications/smtp-routes';
import { inboxRoutes } from './routes/notifications/inbox-routes';
import { escalationRoutes } from './routes/notifications/escalation-routes';
import { organizationRoutes } from './routes/orgs/organization-routes';
import { memberMfaRoutes } from './routes/orgs/member-mfa-routes';
import { permissionRoutes } from './routes/permissions/permission-routes';
import { rollbackRoutes } from './routes/releases/rollback-routes';
import { planAdminRoutes } from './routes/plans/plan-admin-routes';
import { platformConfigRoutes } from './routes/platform-config/platform-config-routes';
import { policyRoutes } from './routes/policies/policy-routes';
import { projectRoutes } from './routes/projects/project-routes';
import { promotionRoutes } from './routes/promotions/promotion-routes';
import { orgChartRoutes } from './routes/registry/org-chart-routes';
import { releaseRoutes } from './routes/releases/release-routes';
import { teamRoutes } from './routes/teams/team-routes';
import { iamRoutes } from './routes/iam/iam-routes';
import { watchRoutes } from './routes/watch/watch-routes';
import { rolloutPlanRoutes } from './routes/rollouts/rollout-plan-routes';
import { rolloutRoutes } from './routes/rollouts/rollout-routes';
import { watchRegistryRoutes } from './routes/watch/watch-registry-routes';
import { metricSourceRoutes } from './routes/verification/metric-source-routes';
import { webhookRoutes } from './routes/webhooks/webhook-routes';
import { describeCaller } from '../src/machine-access/whoami';

/**
 * The HTTP routes of each domain, by module name (src/runtime/modules.ts): the API layer wires a domain's services to
 * its route lists here, so no domain imports api/. The route table mounts them in module order; a name that is not a
 * module's fails test/unit/architecture/domain-modules.test.ts.
 */
export const DOMAIN_ROUTES: Readonly<Record<string, (services: ApiServices) => RouteDef[]>> = {
  'approval-policies': (services) => approvalPolicyRoutes(services.approvalPolicies, services.config.orgs.pageMax),
  audit: (services) => auditRoutes(services.audit, services.config.auditPageMax),
  'break-glass': (services) => breakGlassRoutes(services.breakGlass, services.config.orgs.pageMax),
  catalog: (services) => [
    ...catalogRoutes(
      services.kustomizeBases,
      { path: '/api/v2/org-kustomize-bases', actionPrefix: 'org.kustomize-bases', label: 'kustomize base' },
      services.config.orgs.pageMax,
    ),
    ...catalogRoutes(
      services.manifestBundles,
      { path: '/api/v2/org-manifest-bundles', actionPrefix: 'org.manifest-bundles', label: 'manifest bundle' },
      services.config.orgs.pageMax,
    ),
  ],
  clusters: (services) => [
    ...clusterRoutes(services.clusters.clusters, services.config.orgs.pageMax),
    ...commandRoutes(services.clusters.commands, services.config.orgs.pageMax),
    ...agentBindingRoutes(services.clusters.bindings, services.removal, services.config.orgs.pageMax),
  ],
  crds: (services) => k8sRoutes(services),
  deployments: (services) =>
    deploymentRoutes(
      services.deployments,
      services.deploymentHistory,
      services.deliveryMetrics,
      services.config.orgs.pageMax,
    ),
  diagnostics: (services) => diagnosticsRoutes(services),
  freezes: (services) => freezeRoutes(services.freezes),
  gitops: (services) => gitopsRoutes(services.gitops, services.authorization, services.rollouts),
  identity: (services) => authRoutes(services.identity),
  invitations: (services) =>
    invitationRoutes(services.invitations, services.config.orgs.pageMax, services.identity.sessions),
  verification: (services) => metricSourceRoutes(services.metricSources, services.config.orgs.pageMax),
  'machine-access': (services) => [
    ...apiKeyRoutes(services.apiKeys),
    ...serviceAccountRoutes(services.serviceAccounts),
    ...whoamiRoutes((principal) => describeCaller(services.db, principal)),
  ],
  notifications: (services) => [
    ...channelRoutes(services.notifications.channels, services.config.orgs.pageMax),
    ...smtpRoutes(services.notifications.smtp),
    ...inboxRoutes(services.notifications.inbox, services.config.orgs.pageMax),
    ...escalationRoutes(services.notifications.escalations, services.config.orgs.pageMax),
  ],
  orgs: (services) => [
    ...organizationRoutes(services.orgs, services.config.orgs.pageMax),
    ...memberMfaRoutes(services.memberMfa),
  ],
  permissions: (services) => permissionRoutes(services.grants, services.config.orgs.pageMax),
  pins: (services) => rollbackRoutes(services.releases, services.pins, services.projects.tenants),
  plans: (services) => planAdminRoutes(services),
  'platform-config': (services) => platformConfigRoutes(services, services.config.orgs.pageMax),
  policies: (services) => policyRoutes(services.policies, services.config.orgs.pageMax),
  projects: (services) =>
    projectRoutes({ ...services.projects, removal: services.removal }, services.config.orgs.pageMax),
  promotions: (services) => promotionRoutes(services.promotions, services.rollouts, services.config.orgs.pageMax),
  registry: (services) => orgChartRoutes(services.charts),
  releases: (services) => releaseRoutes(services.releases, services.config.orgs.pageMax),
  teams: (services) => teamRoutes(services.teams, services.config.orgs.pageMax),
  views: (services) =>
    iamRoutes({ iam: services.iamViews, audit: services.audit, auditPageMax: services.config.auditPageMax }),
  rollouts: (services) => [...rolloutPlanRoutes(services.rolloutPlans), ...rolloutRoutes(services.rollouts)],
  watch: (services) => [
    ...watchRoutes(services.watch, services.config.orgs.pageMax),
    ...watchRegistryRoutes(services.watchRegistries),
  ],
  webhooks: (services) => webhookRoutes(services.webhooks),
};
