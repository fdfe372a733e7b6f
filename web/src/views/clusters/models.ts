import type { Item, Schema } from '../../api/models';

/** The cluster routes' answers (docs/clusters.md), as the served OpenAPI document describes them. */
export type Cluster = Schema<'cluster'>;
export type Drift = Item<'drift-list'>;
export type ClusterCommand = Schema<'command'>;
export type AgentBinding = Schema<'agent-binding'>;
