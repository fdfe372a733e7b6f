import type { ClusterCommandRequest } from '../../request-types.generated';
import type { CommandService } from '../../../src/clusters/command-service';
import type { RouteDef } from '../../route-def';
import { bodyOf, created, orgCallerOf, pageOf, paramOf } from '../../request';
import { CLUSTER } from './cluster-routes';

/** Commands to a cluster's agent: queued, sent, succeeded or failed with the agent's result, or expired. */
export function commandRoutes(commands: CommandService, pageMax: number): RouteDef[] {
  const tag = 'clusters';
  return [
    {
      method: 'post',
      path: `${CLUSTER}/commands`,
      summary: 'Queue a command for the agent (sync, refresh, restart a workload)',
      tag,
      // `{command}` comes from the body: the action is e.g. clusters.<id>.commands.sync.
      access: { kind: 'organization', action: 'clusters.{clusterId}.commands.{command}' },
      body: 'cluster-command',
      status: 201,
      handler: async (ctx) =>
        created(
          ctx,
          await commands.create(orgCallerOf(ctx), paramOf(ctx, 'clusterId'), bodyOf<ClusterCommandRequest>(ctx)),
        ),
    },
    {
      method: 'get',
      path: `${CLUSTER}/commands`,
      summary: "The cluster's commands with status and result, oldest first",
      tag,
      access: { kind: 'organization', action: 'clusters.{clusterId}.commands.read' },
      query: 'org-page-query',
      handler: async (ctx) => {
        ctx.body = await commands.list(orgCallerOf(ctx), paramOf(ctx, 'clusterId'), pageOf(ctx, pageMax));
      },
    },
    {
      method: 'get',
      path: `${CLUSTER}/commands/:commandId`,
      summary: 'One command with its status and result',
      tag,
      access: { kind: 'organization', action: 'clusters.{clusterId}.commands.read' },
      handler: async (ctx) => {
        ctx.body = await commands.get(orgCallerOf(ctx), paramOf(ctx, 'clusterId'), paramOf(ctx, 'commandId'));
      },
    },
  ];
}
