import type { AuditService } from '../audit/audit-service';
import type { Db, Queryable } from '../db/knex';
import type { Page, PageRequest } from '../db/pagination';
import { InvalidInput, NotFound } from '../errors';
import { auditActor, uuidKey, type OrgCaller } from '../iam/caller';
import { recordClusterChange } from './cluster-audit';
import type { Cluster } from './cluster-repository';
import {
  findCommand,
  insertCommand,
  listCommands,
  type ClusterCommand,
  type CommandName,
  type CommandParams,
} from './command-repository';

export type CommandService = ReturnType<typeof createCommandService>;

export interface CommandInput extends CommandParams {
  command: CommandName;
}

/**
 * Commands for a cluster's agent (/api/v2/clusters/{id}/commands). The route authorises the concrete action
 * `clusters.<id>.commands.<command>`, so service-account patterns such as `clusters.*.commands.sync` allow exactly that
 * command. A command waits queued until the agent's next heartbeat or pull, then is sent, then succeeded or failed
 * with the agent's result, or expired after AGENT_COMMAND_TTL.
 */
export function createCommandService(deps: {
  db: Db;
  audit: AuditService;
  ttlMs: number;
  clusterOf: (caller: OrgCaller, id: string, db?: Queryable) => Promise<Cluster>;
}) {
  const { db, audit } = deps;
  return {
    create(caller: OrgCaller, clusterId: string, input: CommandInput): Promise<ClusterCommand> {
      if (input.command === 'restart' && !input.workload) throw new InvalidInput('restart needs a workload');
      if (input.command !== 'restart' && input.workload) throw new InvalidInput(`${input.command} takes no workload`);
      return db.transaction(async (trx) => {
        const cluster = await deps.clusterOf(caller, clusterId, trx);
        const params: CommandParams = {};
        if (input.application !== undefined) params.application = input.application;
        if (input.workload !== undefined) params.workload = input.workload;
        const command = await insertCommand(
          trx,
          { organizationId: caller.organizationId, clusterId: cluster.id },
          { name: input.command, params, requestedBy: caller.principal.actor, ttlMs: deps.ttlMs },
        );
        await recordClusterChange(trx, audit, {
          cluster: { ...cluster, organizationId: caller.organizationId },
          action: `cluster.command.${input.command}`,
          actor: auditActor(caller),
          details: { commandId: command.id, params },
        });
        return command;
      });
    },

    async list(caller: OrgCaller, clusterId: string, page: PageRequest): Promise<Page<ClusterCommand>> {
      const cluster = await deps.clusterOf(caller, clusterId);
      return listCommands(db, caller.organizationId, cluster.id, page);
    },

    async get(caller: OrgCaller, clusterId: string, commandId: string): Promise<ClusterCommand> {
      const cluster = await deps.clusterOf(caller, clusterId);
      const id = uuidKey(commandId);
      const command = id ? await findCommand(db, caller.organizationId, cluster.id, id) : null;
      if (!command) throw new NotFound('command not found');
      return command;
    },
  };
}
