import { approvalPolicyHook } from '../approval-policies/approval-policy-hook';
import { createApprovalPolicyService, type ApprovalPolicyService } from '../approval-policies/approval-policy-service';
import { createCatalogService, type CatalogService } from '../catalog/catalog-service';
import { createClusterDomain, type ClusterDomain } from '../clusters/cluster-domain';
import { createGitopsDomain, type GitopsDomain } from '../gitops/gitops-domain';
import { createRepositoryStore, type RepositoryStore } from '../gitops/repository-store';
import { ACTION_ROLES } from '../iam/action-roles';
import { createAuthorizationChain, type AuthorizationChain } from '../iam/authorization-chain';
import { createIamViews, type IamViews } from '../iam/iam-views';
import { createInvitationService, type InvitationService } from '../invitations/invitation-service';
import { createOrgService, type OrgService } from '../orgs/org-service';
import { createGrantService, type GrantService } from '../permissions/grant-service';
import { createEnvironmentService, type EnvironmentService } from '../platform-config/environment-service';
import { createTenantService, type TenantService } from '../platform-config/tenant-service';
import { createPlanGate, type PlanGate } from '../plans/plan-gate';
import { createPolicyService, type PolicyService } from '../policies/policy-service';
import { releasePolicyCheck } from '../policies/policy-check';
import { approvalRequirement } from '../approval-policies/approval-gate';
import { createProjectDomain, type ProjectDomain } from '../projects/project-domain';
import { createBlobStore } from '../registry/blob-store';
import { createChartCatalog, type ChartCatalog } from '../registry/chart-catalog';
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
import { createNotificationDomain, type NotificationDomain } from '../notifications/notification-domain';
import { createWebhookDomain, type WebhookDomain } from '../webhooks/webhook-domain';
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
  /** Helm charts of the registry (/api/v2/org-charts). */
  charts: ChartCatalog;
  /** Versioned kustomize bases and manifest bundles of the organization (src/catalog, validated on upload). */
  kustomizeBases: CatalogService;
  manifestBundles: CatalogService;
  /** Releases as workflows `release-<id>` (src/releases). */
  releases: ReleaseService;
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
  /** Inbound webhooks: project settings, signed image updates from CI, the controller's sync status (src/webhooks). */
  webhooks: WebhookDomain;
}

export function createDomainServices(core: CoreServices): DomainServices {
  const { db, audit, config } = core;
  const owned = { db, audit, misses: core.misses };
  const authorization = createAuthorizationChain(db, ACTION_ROLES);
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
  const repositories = createRepositoryStore(config.dataDir);
  const registry = createRegistryService({
    db,
    audit,
    blobs: createBlobStore(config.dataDir),
    config: config.registry,
  });
  const projects = createProjectDomain({ ...owned, repositories, publicUrl: config.publicUrl });
  const plans = createPlanGate(db);
  authorization.addApprovalPolicy(approvalPolicyHook({ db, repositories, publicUrl: config.publicUrl }));
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
    projects: projects.projects,
    repositories,
    validation: core.validation,
    audit,
    secrets: core.secrets,
    remoteAllowHttp: config.gitops.remoteAllowHttp,
  });
  const releases = createReleaseService({
    ...owned,
    temporal: core.temporal,
    workflows: core.workflows,
    projects: projects.projects,
    taskQueuePrefix: config.temporal.taskQueuePrefix,
    timing: { syncTimeoutMs: config.releases.syncTimeoutMs, queuePollMs: config.releases.queuePollMs },
    namespace: config.temporal.namespace,
    temporalUiUrl: config.releases.temporalUiUrl,
  });
  return {
    authorization,
    plans,
    apiKeys: createApiKeyService({ ...owned, projects: projects.projects, plans }),
    serviceAccounts: createServiceAccountService({ ...owned, plans }),
    machineAuth: {
      apiKey: apiKeyAuthenticator(machineAuth),
      serviceAccountToken: serviceAccountTokenAuthenticator(machineAuth),
    },
    orgs: createOrgService({ ...owned, invitations }),
    invitations,
    teams: createTeamService(owned),
    grants: createGrantService(owned),
    iamViews: createIamViews({ db, authorization }),
    environments: createEnvironmentService(owned),
    tenants: createTenantService(owned),
    repositories,
    projects,
    gitops,
    registry,
    charts: createChartCatalog({ db, registry }),
    kustomizeBases: createCatalogService({ ...owned, validation: core.validation }, 'kustomize-base'),
    manifestBundles: createCatalogService({ ...owned, validation: core.validation }, 'manifest-bundle'),
    releases,
    releasePolicies: {
      check: releasePolicyCheck,
      approvalPolicies: async (trx, target) => (await approvalRequirement(trx, target.organizationId, target)).policies,
    },
    policies: createPolicyService({ ...owned, projects: projects.projects, publicUrl: config.publicUrl }),
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
    }),
    clusters: createClusterDomain({ ...owned, config: config.clusters, workflows: core.workflows, log: core.log }),
    webhooks: createWebhookDomain({
      db,
      audit,
      secrets: core.secrets,
      projects: projects.projects,
      releases,
      commit: gitops.commit,
      config: config.webhooks,
    }),
  };
}
