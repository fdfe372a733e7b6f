/**
 * Shapes of the API's answers as the views read them. The served OpenAPI document describes request bodies and
 * parameters (generated in client/openapi-types.generated.ts) but not responses yet, so these follow the docs.
 */

export interface User {
  id: string;
  email: string;
  name: string;
}

/** An organization of the user as GET /api/v1/auth/me lists it (`id`, as organizationView answers). */
export interface Membership {
  id: string;
  slug: string;
  name: string;
  role: string;
}

export interface ActiveOrganization {
  id: string;
  slug: string;
  name: string;
  role: string;
}

export interface SignedIn {
  accessToken: string;
  user: User;
  organization: ActiveOrganization | null;
  returnTo?: string;
}

export interface MfaChallenge {
  mfaRequired: true;
  mfaToken: string;
  methods: string[];
}

export interface Me {
  user: User;
  /** The active organization, as one of the memberships. */
  organization: Membership | null;
  memberships: Membership[];
  mfa: { state: string; totpEnabled: boolean; recoveryCodesRemaining: number };
}

export interface AuthConfig {
  registrationOpen: boolean;
  providers: string[];
  mfaAvailable: boolean;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface Project {
  id: string;
  slug: string;
  name: string;
  description?: string | null;
}

export interface ProjectEnvironment {
  environment: string;
  kubernetesVersion: string;
}

export interface Tenant {
  id: string;
  slug: string;
  name: string;
}

export interface Workload {
  name: string;
  image: { repository: string; tag: string };
  overrides?: {
    environments?: Record<string, { tag?: string }>;
    tenants?: Record<string, Record<string, { tag?: string }>>;
  };
}

export interface Release {
  id: string;
  title?: string;
  status: string;
  statusReason: string | null;
  waitingBehind: string | null;
  commitSha: string | null;
  project: string;
  tenant: string;
  tenantId: string;
  environment: string;
  createdAt?: string;
  kind?: string;
  createdBy?: string;
  changes?: WorkloadChange[] | null;
  /** Per service, what the target runs now (from) and after (to): current -> proposed (empty: not recorded). */
  versions?: VersionChange[];
  downgrade?: boolean;
  validation: {
    summary: { errors: number; warnings: number; deprecations: number };
    results: { severity: string; message: string; path?: string; resource?: string }[];
  } | null;
  policies: unknown;
  approvals: {
    required: { policyId: string; name: string; requiredApprovals: number }[];
    received: number;
    decisions: { actor: string; decision: string; comment?: string | null }[];
    /** The break-glass session that let the release through without these approvals. */
    bypassedBy?: BreakGlassGrant | null;
  };
  /** While it waits for the controller: the latest report at its commit (service and time); then the verdict. */
  sync: { status: string | null; health: string | null; service?: string | null; reportedAt?: string | null };
  /** The Applications the controller has not yet reported Synced and Healthy at the release's commit. */
  waitingFor?: { service: string; syncStatus: string | null; healthStatus: string | null }[];
  breakGlass?: BreakGlassGrant | null;
  links: { workflow: string | null; history: string };
}

export interface BreakGlassGrant {
  sessionId: string;
  justification: string;
  userId: string;
  actor?: string;
  endsAt: string | null;
}

export interface TimelineEntry {
  step: string;
  actor: string | null;
  time: string;
  result: unknown;
  commitSha: string | null;
}

export interface AuditEntry {
  id: string;
  actor: string;
  action: string;
  status: string;
  details: Record<string, unknown>;
  gitCommitSha: string | null;
  createdAt: string;
}

export interface ReleaseHistory {
  releaseId: string;
  workflowId: string;
  timeline: TimelineEntry[];
  audit: AuditEntry[];
}

export interface Pin {
  tenant: string;
  tenantId: string;
  environment: string;
  reason: string;
  releaseId: string | null;
  pinnedBy: string;
}

export interface Freeze {
  id: string;
  name: string;
  reason: string;
  /** Empty: every environment (and tenant). */
  environments: string[];
  tenants: string[];
  active: boolean;
}

export interface WorkloadChange {
  workload: string;
  tag?: string;
  replicas?: number;
  variables?: Record<string, string>;
}

export interface VersionChange {
  tenant: string;
  workload: string;
  from: string | null;
  to: string;
  direction: 'upgrade' | 'downgrade' | 'unchanged' | 'not-comparable';
}

export interface Promotion {
  id: string;
  project: string;
  status: string;
  statusReason: string | null;
  sourceEnvironment: string;
  targetEnvironment: string;
  moves: { tenant: string; tenantId: string; changes: WorkloadChange[] }[];
  /** Per tenant and service, what the target runs now (from) and after (to): current -> proposed. */
  versions?: VersionChange[];
  downgrade?: boolean;
  causes: { cause: string; message: string }[] | null;
  commitSha: string | null;
  createdBy: string;
  createdAt: string;
  approvals?: {
    required: { policyId: string; name: string; requiredApprovals: number }[];
    received: { actor: string; comment: string | null; at: string }[];
  };
}

export interface CompareItem {
  tenant: string;
  service: string;
  presentIn: { from: boolean; to: boolean };
  /** `to` is the current value, `from` the proposed one; `diff` (current -> proposed) for manifests and the Application. */
  differences: ({ type: 'manifests'; diff: string } | { type: string; from: unknown; to: unknown; diff?: string })[];
}

export interface Comparison {
  commit: string | null;
  from: string;
  to: string;
  /** The environment as it runs now (`to`) and the one proposed (`from`). */
  current?: string;
  proposed?: string;
  items: CompareItem[];
}

export interface BulkPreview {
  workload: string;
  tag: string;
  files: { path: string; diff: string }[];
  skipped: { tenant: string; environment: string; reason: string }[];
  freezes: { reason?: string; name?: string }[];
  /** Why an approval policy would refuse applying, one message per policy (it names the policy). */
  approvalPolicies?: string[];
  blocked: boolean;
}

export interface BulkResult {
  commit: string | null;
  created?: boolean;
  skipped: { tenant: string; environment: string; reason: string }[];
  message?: string;
}

export interface RollbackPreview {
  rollbackTo: { releaseId: string; title: string; commitSha: string | null; createdAt: string };
  /** Per service, what the target runs now and after the rollback (current -> proposed). */
  versions?: VersionChange[];
  /** The first status the rollback would reach, and why (the approval policies it waits for, by name). */
  outcome?: { status: string; reason: string | null };
  approvalPolicies?: { id: string; name: string; requiredApprovals: number }[];
  queue?: ReleasePreview['queue'];
  tenant: string;
  environment: string;
  counts: Record<string, number>;
  targets: { service: string; files: { path: string; status: string; diff: string }[] }[];
}

/** A release's validation per resource: the preview shows it, and a creation validation blocks answers it (422). */
export interface ValidationResult {
  summary: { errors: number; warnings: number; deprecations: number };
  blocked: boolean;
  resources: { file: string; resource: string; results: { severity: string; message: string; path: string }[] }[];
}

export interface ReleasePreview {
  tenant: string;
  environment: string;
  /** The status the release would reach first; `Refused`: create would answer 409 (422 for validation) with `reason`. */
  outcome: { status: string; reason: string | null };
  validation: ValidationResult;
  policies: { blocked: boolean; failed: string[]; failedEnforced: string[]; violations: number };
  approvalPolicies: { id: string; name: string; requiredApprovals: number }[];
  freezes: { id: string; name: string; reason: string; endsAt: string | null }[];
  breakGlass: { justification: string; endsAt: string } | null;
  pin: Pin | null;
  /** The release holding the target (or last in its queue) this one would wait behind; null when the target is free. */
  queue?: { behind: { id: string; title: string; status: string }; waiting: number; reason: string } | null;
}

/** One Application of the deployments matrix: what the commit path last wrote and what the controller reports. */
export interface Deployment {
  tenant: string;
  environment: string;
  service: string;
  desired: { version: string | null; revision: string; since: string | null } | null;
  live: {
    version: string | null;
    revision: string;
    syncStatus: string | null;
    healthStatus: string | null;
    reportedAt: string | null;
  } | null;
  /** The live revision carries the desired content. */
  current: boolean;
}
