import type { Answer, Item, Schema } from '../../../client/openapi-answers';

/**
 * Names for the API's answers as the views read them: every one is an alias of the served OpenAPI document's response
 * schemas (schemas/responses, generated into client/openapi-types.generated.ts), never a shape written here. A response
 * that changes shape changes these types, and the views that read it stop compiling.
 */
export type { Answer, Item, Schema } from '../../../client/openapi-answers';

export type User = Schema<'user'>;
/** An organization of the user as GET /api/v1/auth/me lists it. */
export type Membership = Schema<'membership'>;
export type SignedIn = Answer<'/api/v1/auth/mfa/verify', 'post'>;
export type MfaChallenge = Extract<Answer<'/api/v1/auth/login', 'post'>, { mfaRequired: true }>;
export type Me = Schema<'auth-me'>;
export type AuthConfig = Schema<'config-list'>;

export type Project = Schema<'project'>;
export type ProjectEnvironment = Schema<'environment'>;
export type Tenant = Schema<'tenant'>;
export type Workload = Schema<'workload'>;

export type Release = Schema<'release'>;
/** A release as the project's list shows it (no approvals or validation detail). */
export type ReleaseSummary = Item<'release-list'>;
export type BreakGlassGrant = Schema<'break-glass-grant'>;
export type TimelineEntry = Schema<'timeline'>;
export type AuditEntry = Schema<'audit-entry'>;
export type ReleaseHistory = Schema<'history-list'>;
export type Pin = Schema<'pin'>;
/** A freeze as the freeze routes answer it (its definition and whether it is in force). */
export type Freeze = Schema<'freeze-view'>;
export type WorkloadChange = Schema<'change'>;
export type VersionChange = Schema<'version-change'>;
export type Promotion = Schema<'promotion'>;
export type PromotionSummary = Item<'promotion-list'>;
export type Comparison = Schema<'compare-list'>;
export type CompareItem = Comparison['items'][number];
export type BulkPreview = Answer<'/api/v2/projects/{slug}/bulk-update/preview', 'post'>;
export type BulkResult = Answer<'/api/v2/projects/{slug}/bulk-update', 'post'>;
export type RollbackPreview = Answer<'/api/v2/tenants/{tenant}/envs/{env}/rollback/preview', 'post'>;
export type ReleasePreview = Answer<'/api/v2/projects/{slug}/releases/preview', 'post'>;
/** A release's validation per resource: the preview shows it, and a creation validation blocks answers it (422). */
export type ValidationResult = ReleasePreview['validation'];
/** One Application of the deployments matrix: what the commit path last wrote and what the controller reports. */
export type Deployment = Item<'deployment-list'>;
/** An Application's changes between two instants (GET .../deployments/changes). */
export type ChangedTarget = Item<'deployment-change-list'>;
/** Delivery metrics of a project over a window (GET .../deployments/metrics). */
export type DeliveryMetrics = Schema<'deployment-metrics'>;
/** A workload's watch subscription: the repository it follows, the policy and what it updates (docs/automation.md). */
export type WatchSubscription = Schema<'watch-subscription'>;
/** A version found for a project's subscriptions, with each target's state (GET .../watch/discoveries). */
export type WatchDiscovery = Item<'watch-discovery-list'>;
/** A rollout with its waves, their states and measurements (GET /api/v2/rollouts/{id}). */
export type Rollout = Schema<'rollout'>;
