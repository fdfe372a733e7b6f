import type { Item, Schema } from '../../client/openapi-answers';

/**
 * The API's answers the CLI reads, by name: aliases of the served OpenAPI document's response schemas
 * (client/openapi-types.generated.ts), never shapes written here. The API client (api-client.ts) types every answer by
 * its route; these name the ones a function takes.
 */
export type Release = Schema<'release'>;
export type ReleaseSummary = Item<'release-list'>;
export type Promotion = Schema<'promotion'>;
export type PromotionSummary = Item<'promotion-list'>;
export type BreakGlassGrant = Schema<'break-glass-grant'>;
export type VersionChange = Schema<'version-change'>;
export type CompareItem = Item<'compare-list'>;
export type Caller = Schema<'caller'>;
export type Freeze = Item<'freeze-list'>;
export type BreakGlassSession = Item<'break-glass-list'>;
export type Deployment = Item<'deployment-list'>;
export type ChangedTarget = Item<'deployment-change-list'>;
export type DeliveryMetrics = Schema<'deployment-metrics'>;
export type WatchSubscription = Schema<'watch-subscription'>;
export type WatchDiscovery = Item<'watch-discovery-list'>;
export type Rollout = Schema<'rollout'>;
