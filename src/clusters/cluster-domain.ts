import type { ClustersConfig } from '../config/clusters';
import type { OrgDomainDeps } from '../iam/cross-org';
import type { Logger } from '../logging/logger';
import type { RateLimiter } from '../rate-limit/fixed-window-limiter';
import type { WorkflowStarter } from '../temporal/start-workflow';
import { createAgentBindingService } from './agent-binding-service';
import { createAgentHub } from './agent-hub';
import { createClusterService } from './cluster-service';
import { createCommandService } from './command-service';

export type ClusterDomain = ReturnType<typeof createClusterDomain>;

/** Clusters, their commands and agent bindings (HTTP), and the agent protocol hub (gRPC), built once. */
export function createClusterDomain(
  deps: OrgDomainDeps & { config: ClustersConfig; workflows: WorkflowStarter; log: Logger; limiter: RateLimiter },
) {
  const { config } = deps;
  const clusters = createClusterService({
    ...deps,
    joinTokenTtlMs: config.joinTokenTtlMs,
    credentialOverlapMs: config.credentialOverlapMs,
  });
  return {
    clusters,
    commands: createCommandService({ ...deps, ttlMs: config.commandTtlMs, clusterOf: clusters.lookup }),
    bindings: createAgentBindingService({ ...deps, clusterOf: clusters.lookup }),
    agentHub: createAgentHub(deps),
  };
}
