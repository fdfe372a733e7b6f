import type { DomainModule } from '../runtime/domain-module';
import { provide, owned } from '../runtime/service-provider';
import { createClusterDomain, type ClusterDomain } from './cluster-domain';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Clusters, commands, agent bindings and the agent protocol hub (src/clusters; gRPC in the API process). */
    clusters: ClusterDomain;
  }
}

/** What src/clusters plugs into the platform (src/runtime/domain-module.ts). */
export const clustersModule = {
  name: 'clusters',
  tables: [
    'agent_bindings',
    'cluster_agent_credentials',
    'cluster_commands',
    'cluster_drift',
    'cluster_join_tokens',
    'clusters',
  ],
  workflows: ['clusterHeartbeatWorkflow'],
  settings: 'clusters',
  reconcilers: (services) => [
    {
      name: 'cluster heartbeat',
      run: () => services.clusters.agentHub.reconcileSilent(),
      intervalMs: services.config.clusters.disconnectAfterMs,
    },
  ],
  services: {
    clusters: provide([], (core) =>
      createClusterDomain({
        ...owned(core),
        config: core.config.clusters,
        workflows: core.workflows,
        log: core.log,
        limiter: core.limiter,
      }),
    ),
  },
  actions: {
    // Clusters and agent hub (/api/v2/clusters): reading for every member; registering, changing and the agent's
    // credentials for admins; commands to the agent for members, one action per command so service-account patterns
    // such as `clusters.*.commands.sync` allow exactly that command (grants on `clusters.<id>` lift a caller).
    'org.clusters.read': 'viewer',
    'org.clusters.create': 'admin',
    'clusters.*.read': 'viewer',
    'clusters.*.update': 'admin',
    'clusters.*.delete': 'admin',
    'clusters.*.join-token.create': 'admin',
    'clusters.*.credential.rotate': 'admin',
    'clusters.*.drift.read': 'viewer',
    'clusters.*.commands.read': 'viewer',
    'clusters.*.commands.sync': 'member',
    'clusters.*.commands.refresh': 'member',
    'clusters.*.commands.restart': 'member',
    // The template `clusters.{clusterId}.commands.{command}` before its body names a command (refused by the schema).
    'clusters.*.commands.*': 'member',
    // Agent bindings: which project, tenants and environments a cluster serves.
    'org.agent-bindings.read': 'viewer',
    'org.agent-bindings.create': 'admin',
    'org.agent-bindings.delete': 'admin',
  },
} satisfies DomainModule;
