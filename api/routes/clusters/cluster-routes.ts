import type { ClusterCreateRequest, ClusterUpdateRequest } from '../../request-types.generated';
import type { ClusterService } from '../../../src/clusters/cluster-service';
import type { RouteDef } from '../../route-def';
import { bodyOf, created, noContent, orgCallerOf, pageOf, paramOf, queryOf } from '../../request';

export const CLUSTER = '/api/v2/clusters/:clusterId';

/** Clusters and agent hub: the organization's clusters, join tokens and agent credentials (/api/v2/clusters). */
export function clusterRoutes(clusters: ClusterService, pageMax: number): RouteDef[] {
  const tag = 'clusters';
  return [
    {
      method: 'get',
      path: '/api/v2/clusters',
      summary: 'Clusters of the organization with status, last heartbeat and the agent-reported facts, by name',
      tag,
      access: { kind: 'organization', action: 'org.clusters.read' },
      query: 'org-page-query',
      handler: async (ctx) => {
        ctx.body = await clusters.list(orgCallerOf(ctx), pageOf(ctx, pageMax));
      },
    },
    {
      method: 'post',
      path: '/api/v2/clusters',
      summary: 'Register a cluster (Disconnected until its agent joins with a join token)',
      tag,
      access: { kind: 'organization', action: 'org.clusters.create' },
      body: 'cluster-create',
      status: 201,
      handler: async (ctx) => created(ctx, await clusters.create(orgCallerOf(ctx), bodyOf<ClusterCreateRequest>(ctx))),
    },
    {
      method: 'get',
      path: CLUSTER,
      summary: 'One cluster: status (Connected, Disconnected), last heartbeat, Kubernetes version, controller health',
      tag,
      access: { kind: 'organization', action: 'clusters.{clusterId}.read' },
      handler: async (ctx) => {
        ctx.body = await clusters.get(orgCallerOf(ctx), paramOf(ctx, 'clusterId'));
      },
    },
    {
      method: 'patch',
      path: CLUSTER,
      summary: "Change a cluster's name or description",
      tag,
      access: { kind: 'organization', action: 'clusters.{clusterId}.update' },
      body: 'cluster-update',
      handler: async (ctx) => {
        const changes = bodyOf<ClusterUpdateRequest>(ctx);
        ctx.body = await clusters.update(orgCallerOf(ctx), paramOf(ctx, 'clusterId'), changes);
      },
    },
    {
      method: 'delete',
      path: CLUSTER,
      summary: 'Delete a cluster with its tokens, credentials, commands, drift records and bindings',
      tag,
      access: { kind: 'organization', action: 'clusters.{clusterId}.delete' },
      handler: async (ctx) => {
        await clusters.delete(orgCallerOf(ctx), paramOf(ctx, 'clusterId'));
        noContent(ctx);
      },
    },
    {
      method: 'post',
      path: `${CLUSTER}/join-token`,
      summary: 'A one-time, expiring join token for the agent (shown once, stored hashed)',
      tag,
      access: { kind: 'organization', action: 'clusters.{clusterId}.join-token.create' },
      status: 201,
      handler: async (ctx) => created(ctx, await clusters.createJoinToken(orgCallerOf(ctx), paramOf(ctx, 'clusterId'))),
    },
    {
      method: 'post',
      path: `${CLUSTER}/rotate-token`,
      summary: 'A new agent credential (shown once); older ones are refused after AGENT_CREDENTIAL_OVERLAP',
      tag,
      access: { kind: 'organization', action: 'clusters.{clusterId}.credential.rotate' },
      status: 201,
      handler: async (ctx) =>
        created(ctx, await clusters.rotateCredential(orgCallerOf(ctx), paramOf(ctx, 'clusterId'))),
    },
    {
      method: 'get',
      path: `${CLUSTER}/drift`,
      summary: 'Resources whose live state differs from Git, with a per-field diff, from the agent reports',
      tag,
      access: { kind: 'organization', action: 'clusters.{clusterId}.drift.read' },
      query: 'cluster-drift-query',
      handler: async (ctx) => {
        const status = queryOf(ctx).status as 'open' | 'resolved' | undefined;
        ctx.body = await clusters.drift(orgCallerOf(ctx), paramOf(ctx, 'clusterId'), pageOf(ctx, pageMax), status);
      },
    },
  ];
}
