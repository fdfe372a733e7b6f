import { taskQueue } from '../temporal/definitions';
import { approvalPolicyHook } from '../approval-policies/approval-policy-hook';
import { createApprovalPolicyService, type ApprovalPolicyService } from '../approval-policies/approval-policy-service';
import { createCatalogService, type CatalogService } from '../catalog/catalog-service';
import { BASE_BUILD_LIMITS } from '../catalog/catalog-validation';
import { createClusterDomain, type ClusterDomain } from '../clusters/cluster-domain';
import { createGitopsDomain, type GitopsDomain } from '../gitops/gitops-domain';
import { createRepositoryStore, type RepositoryStore } from '../gitops/repository-store';
import { ACTION_ROLES } from '../iam/action-roles';
import { actionRoles } from './modules';
import { createAuthorizationChain, type AuthorizationChain } from '../iam/authorization-chain';
import { createIamViews, type IamViews } from '../views/iam-views';
import { createCallerScope, type CallerScope } from '../views/caller-scope';
import { createInvitationService, type InvitationService } from '../invitations/invitation-service';
import { createOrgService, type OrgService } from '../orgs/org-service';
import { createGrantService, type GrantService } from '../permissions/grant-service';
import { grantRoles } from '../permissions/grant-roles';
import { createEnvironmentService, type EnvironmentService } from '../platform-config/environment-service';
import { createTenantService, type TenantService } from '../platform-config/tenant-service';
import { createPlanGate, type PlanGate } from '../plans/plan-gate';
import { createPolicyService, type PolicyService } from '../policies/policy-service';
import { releasePolicyCheck } from '../policies/policy-check';
import { approvalRequirement } from '../approval-policies/approval-gate';
import { createProjectDomain, type ProjectDomain } from '../projects/project-domain';
import { createBlobStore } from '../registry/create-blob-store';
import { catalogRegistryHook } from '../catalog/catalog-registry-hook';
import { createWorkloadSources, type WorkloadSources } from '../gitops/workload-sources';
import { createKubeTools } from '../tools/kube-tools';
import { kustomizeBuild } from '../tools/kustomize-build';
import { createTargetRemoval, type TargetRemoval } from '../environment-removal/target-removal';
import { repoRoot } from '../paths';
import path from 'node:path';
import { createChartCatalog, type ChartCatalog } from '../registry/chart-catalog';
import { createChartMetadata } from '../registry/chart-metadata';
import { createRegistryService, type RegistryService } from '../registry/registry-service';
import { createTeamService, type TeamService } from '../teams/team-service';
import { createApiKeyService, type ApiKeyService } from '../machine-access/api-key-service';
import {
  apiKeyAuthenticator,
  serviceAccountTokenAuthenticator,
  type MachineAuthDeps,
} from '../machine-access/machine-authenticators';
import { createServiceAccountService, type ServiceAccountService } from '../machine-access/service-account-service';
import type { Authenticator } from '../iam/authenticator';
import { createReleaseService, type ReleaseService } from '../releases/release-service';
import type { ReleasePolicyPorts } from '../releases/release-policy-ports';
import { createPromotionService, type PromotionService } from '../promotions/promotion-service';
import { createPinService, type PinService } from '../pins/pin-service';
import { createNotificationDomain, type NotificationDomain } from '../notifications/notification-domain';
import { createBreakGlassService, type BreakGlassService } from '../break-glass/break-glass-service';
import { createFreezeService, type FreezeService } from '../freezes/freeze-service';
import { createGovernanceGate } from '../governance/governance-gate';
import type { GovernanceGate } from '../governance/governance-verdict';
import { createWebhookDomain, type WebhookDomain } from '../webhooks/webhook-domain';
import { createDeploymentService, type DeploymentService } from '../deployments/deployment-service';
import type { CoreServices } from './services';

/** The domain modules, each built once from the core services. New domains add their service here. */
export interface DomainServices {
  /** Organization role -> resource grants -> approval policy hooks, for every organization route (src/iam). */
  authorization: AuthorizationChain;
  /** Plan tiers: `plans.require(orgId, feature)` answers 403 naming the plan needed. */
  plans: PlanGate;
  orgs: OrgService;
  invitations: InvitationService;
  teams: TeamService;
  grants: GrantService;
  /** Effective permissions, access overview and the IAM audit report. */
  iamViews: IamViews;
  /** The caller's organization and its projects by slug, for Git over HTTP and the registry (src/views). */
  callerScope: CallerScope;
  environments: EnvironmentService;
  tenants: TenantService;
  /** Where hosted Git repositories live (src/gitops/repository-store.ts). */
  repositories: RepositoryStore;
  /** Projects with their environments, tenants and workloads. */
  projects: ProjectDomain;
  /** Files, delivery, compare and bulk update over the hosted repositories (writes through the `git` queue). */
  gitops: GitopsDomain;
  /** Project API keys and service accounts with their tokens (src/machine-access). */
  apiKeys: ApiKeyService;
  serviceAccounts: ServiceAccountService;
  /** Bearer authenticators of the machine credentials, for the dispatcher in api/app.ts. */
  machineAuth: { apiKey: Authenticator; serviceAccountToken: Authenticator };
  /** The organization registry behind /v2/* (src/registry, blobs under DATA_DIR/registry). */
  registry: RegistryService;
  /** Renders workloads referencing an organization chart or kustomize base (src/gitops/workload-sources.ts). */
  sources: WorkloadSources;
  /** Helm charts of the registry (/api/v2/org-charts). */
  charts: ChartCatalog;
  /** Versioned kustomize bases and manifest bundles of the organization (src/catalog, validated on upload). */
  kustomizeBases: CatalogService;
  manifestBundles: CatalogService;
  /** Releases as workflows `release-<id>` (src/releases). */
  releases: ReleaseService;
  /** Pinned tenants and environments (a rollback pins; src/pins). */
  pins: PinService;
  /** Promotions as workflows `promotion-<id>` (src/promotions). */
  promotions: PromotionService;
  /** The manifest policies and approval policies a release consults (activities/release.ts). */
  releasePolicies: ReleasePolicyPorts;
  /** Manifest policies of projects (/api/v2/policies) and their evaluation. */
  policies: PolicyService;
  /** Approval policies (/api/v2/approval-policies); their chain hook gates direct deploys into covered environments. */
  approvalPolicies: ApprovalPolicyService;
  /** Outbound notifications: channels, the safe sender and the delivery log (src/notifications). */
  notifications: NotificationDomain;
  /** Clusters, commands, agent bindings and the agent protocol hub (src/clusters; gRPC in the API process). */
  clusters: ClusterDomain;
  /** Freeze windows of projects and the organization, with the stop-the-line switch (src/freezes). */
  freezes: FreezeService;
  /** Safe removal of a project environment, tenant, workload or agent binding (src/environment-removal/target-removal.ts). */
  removal: TargetRemoval;
  /** Break-glass sessions as workflows `break-glass-<id>` and who may open them (src/break-glass). */
  breakGlass: BreakGlassService;
  /** What releases, promotions, rollbacks and bulk image updates ask: freezes in force and the actor's break-glass. */
  governance: GovernanceGate;
  /** Inbound webhooks: project settings, signed image updates from CI, the controller's sync status (src/webhooks). */
  webhooks: WebhookDomain;
  /** What runs where: the deployments matrix and environment soak times (src/deployments). */
  deployments: DeploymentService;
}

export function createDomainServices(core: CoreServices): DomainServices {
  const { db, audit, config } = core;
  const owned = { db, audit, misses: core.misses };
  const authorization = createAuthorizationChain(grantRoles(db), actionRoles(ACTION_ROLES));
  const invitations = createInvitationService({
    ...owned,
    temporal: core.temporal,
    workflows: core.workflows,
    secrets: core.secrets,
    log: core.log,
    limiter: core.limiter,
    rates: config.orgs.invitationRates,
    rateWindowMs: config.orgs.invitationRateWindowMs,
    ttlMs: config.orgs.invitationTtlMs,
    publicUrl: config.publicUrl,
  });
  const repositories = createRepositoryStore(config.gitops.repositoriesDir);
  const blobs = createBlobStore(config.dataDir, config.registry.objectStore);
  const registry = createRegistryService({ db, audit, blobs, config: config.registry });
  const tools = createKubeTools({
    helmPath: config.registry.helmPath,
    kubectlPath: config.registry.kubectlPath,
    toolsDir: path.join(repoRoot(), '.tools'),
  });
  const sources = createWorkloadSources({ blobs, tools });
  const buildBase = async (files: Record<string, string>) =>
    kustomizeBuild(await tools.kubectl(), files, BASE_BUILD_LIMITS);
  const catalogDeps = { ...owned, validation: core.validation, registry, buildBase };
  const catalogs = {
    'kustomize-base': createCatalogService(catalogDeps, 'kustomize-base'),
    'manifest-bundle': createCatalogService(catalogDeps, 'manifest-bundle'),
  };
  registry.addManifestHook(catalogRegistryHook({ blobs, catalogs }));
  const chartMetadata = createChartMetadata({ blobs });
  registry.addManifestHook(chartMetadata.hook);
  const projects = createProjectDomain({
    ...owned,
    repositories,
    publicUrl: config.publicUrl,
    checkSource: sources.check,
  });
  const plans = createPlanGate(db);
  const governance = createGovernanceGate();
  authorization.addApprovalPolicy(approvalPolicyHook({ db, repositories, publicUrl: config.publicUrl, sources }));
  const machineAuth: MachineAuthDeps = {
    db,
    limiter: core.limiter,
    plans,
    rate: { perCredential: config.orgs.machineRatePerCredential, windowMs: config.orgs.machineRateWindowMs },
  };
  const gitops = createGitopsDomain({
    db,
    workflows: core.workflows,
    taskQueuePrefix: config.temporal.taskQueuePrefix,
    publicUrl: config.publicUrl,
    sources,
    projects: projects.projects,
    repositories,
    validation: core.validation,
    audit,
    secrets: core.secrets,
    remoteAllowHttp: config.gitops.remoteAllowHttp,
    outbound: config.notifications.outbound,
    gate: governance,
  });
  const releasePolicies: ReleasePolicyPorts = {
    check: releasePolicyCheck,
    approvalPolicies: async (trx, target) => (await approvalRequirement(trx, target.organizationId, target)).policies,
  };
  const releases = createReleaseService({
    ...owned,
    temporal: core.temporal,
    workflows: core.workflows,
    projects: projects.projects,
    tenants: projects.tenants,
    taskQueuePrefix: config.temporal.taskQueuePrefix,
    timing: { syncTimeoutMs: config.releases.syncTimeoutMs, queuePollMs: config.releases.queuePollMs },
    namespace: config.temporal.namespace,
    temporalUiUrl: config.releases.temporalUiUrl,
    repositories,
    publicUrl: config.publicUrl,
    sources,
    governance,
    evaluation: { validation: core.validation, releasePolicies },
  });
  const promotions = createPromotionService({
    ...owned,
    temporal: core.temporal,
    workflows: core.workflows,
    projects: projects.projects,
    taskQueuePrefix: config.temporal.taskQueuePrefix,
    timing: {
      recheckMs: config.promotions.recheckMs,
      expiryMs: config.promotions.expiryMs,
      syncTimeoutMs: config.releases.syncTimeoutMs,
    },
    publicUrl: config.publicUrl,
    sources,
    namespace: config.temporal.namespace,
    temporalUiUrl: config.releases.temporalUiUrl,
  });
  const domain: Omit<DomainServices, 'removal'> = {
    authorization,
    plans,
    apiKeys: createApiKeyService({ ...owned, projects: projects.projects, plans }),
    serviceAccounts: createServiceAccountService({ ...owned, plans }),
    machineAuth: {
      apiKey: apiKeyAuthenticator(machineAuth),
      serviceAccountToken: serviceAccountTokenAuthenticator(machineAuth),
    },
    orgs: createOrgService({ ...owned, invitations, limiter: core.limiter, createRate: config.orgs.orgCreateRate }),
    invitations,
    teams: createTeamService(owned),
    grants: createGrantService(owned),
    iamViews: createIamViews({ db, authorization }),
    callerScope: createCallerScope(db),
    environments: createEnvironmentService(owned),
    tenants: createTenantService(owned),
    repositories,
    projects,
    gitops,
    registry,
    sources,
    charts: createChartCatalog({ db, registry, metadata: chartMetadata }),
    kustomizeBases: catalogs['kustomize-base'],
    manifestBundles: catalogs['manifest-bundle'],
    releases,
    pins: createPinService({ ...owned, projects: projects.projects, tenants: projects.tenants }),
    promotions,
    releasePolicies,
    policies: createPolicyService({ ...owned, projects: projects.projects, publicUrl: config.publicUrl, sources }),
    approvalPolicies: createApprovalPolicyService({ ...owned, projects: projects.projects }),
    notifications: createNotificationDomain({
      ...owned,
      secrets: core.secrets,
      mailer: core.mailer,
      plans,
      projects: projects.projects,
      workflows: core.workflows,
      temporal: core.temporal,
      config: config.notifications,
      limiter: core.limiter,
    }),
    clusters: createClusterDomain({
      ...owned,
      config: config.clusters,
      workflows: core.workflows,
      log: core.log,
      limiter: core.limiter,
    }),
    freezes: createFreezeService({
      ...owned,
      projects: projects.projects,
      horizonMs: config.governance.freezeHorizonMs,
      plans,
      limiter: core.limiter,
    }),
    breakGlass: createBreakGlassService({
      ...owned,
      temporal: core.temporal,
      workflows: core.workflows,
      minuteMs: config.governance.breakGlassMinuteMs,
    }),
    governance,
    webhooks: createWebhookDomain({
      db,
      audit,
      secrets: core.secrets,
      projects: projects.projects,
      releases,
      promotions,
      governance,
      workflows: core.workflows,
      gitTaskQueue: taskQueue(config.temporal.taskQueuePrefix, 'git'),
      config: config.webhooks,
    }),
    deployments: createDeploymentService({ db, audit, projects: projects.projects }),
  };
  return {
    ...domain,
    removal: createTargetRemoval({
      db,
      projects: projects.projects,
      tenants: projects.tenants,
      workloads: projects.workloads,
      bindings: domain.clusters.bindings,
      repositories,
      commit: gitops.commit,
      publicUrl: config.publicUrl,
      sources,
      releases,
      promotions,
      pins: domain.pins,
      breakGlass: domain.breakGlass,
      freezes: domain.freezes,
      webhookSettings: domain.webhooks.settings,
    }),
  };
}
