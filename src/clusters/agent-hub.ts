import type { AuditService } from '../audit/audit-service';
import type { ClustersConfig } from '../config/clusters';
import type { Db, Tx } from '../db/knex';
import { InvalidInput, Unauthorized } from '../errors';
import type { Logger } from '../logging/logger';
import type { RateLimiter } from '../rate-limit/fixed-window-limiter';
import { errorFields } from '../logging/logger';
import { AGENT_CREDENTIAL_PREFIX, JOIN_TOKEN_PREFIX, isWellFormed, mintSecret } from '../machine-access/secret-value';
import type { WorkflowStarter } from '../temporal/start-workflow';
import { followClusterVersion } from './agent-binding-service';
import {
  consumeJoinToken,
  endAgentCredentials,
  findCredentialCluster,
  insertAgentCredential,
} from './agent-credential-repository';
import { createAgentReports } from './agent-reports';
import { agentActor, recordClusterChange } from './cluster-audit';
import { findClusterRow, recordHeartbeat, silentConnectedClusters, type HeartbeatFacts } from './cluster-repository';
import { hashSecret } from './cluster-service';
import {
  agentHeartbeatSignal,
  clusterHeartbeatWorkflowId,
  clusterHeartbeatWorkflowType,
} from './cluster-workflow-contract';
import { expireCommands, rowToCommand, takeQueuedCommands, type ClusterCommand } from './command-repository';

/** Who is calling the agent protocol: the cluster its credential belongs to. */
export interface AgentSession {
  clusterId: string;
  organizationId: string;
}

export interface AgentHubDeps {
  db: Db;
  audit: AuditService;
  workflows: WorkflowStarter;
  config: ClustersConfig;
  log: Logger;
  limiter: RateLimiter;
}

/** Commands handed out per heartbeat or pull: the agent asks again for more. */
const COMMANDS_PER_CALL = 20;
const FACT_MAX = 128;

function checkFacts(facts: HeartbeatFacts): HeartbeatFacts {
  for (const [name, value] of Object.entries(facts)) {
    if (typeof value !== 'string' || value.length > FACT_MAX || ![...value].every((c) => c >= ' ')) {
      throw new InvalidInput(`${name} must be a string of at most ${FACT_MAX} printable characters`);
    }
  }
  return facts;
}

export type AgentHub = ReturnType<typeof createAgentHub>;

/**
 * The agent protocol, independent of its transport (src/clusters/agent-grpc-server.ts): registration with a join
 * token, the credential check of every call, heartbeats, command delivery and the agent's reports.
 */
export function createAgentHub(deps: AgentHubDeps) {
  const { db, audit, config } = deps;

  /** Expires overdue commands (audited) and hands out the queued ones as `sent`, in the caller's transaction. */
  async function deliverCommands(
    trx: Tx,
    session: AgentSession,
  ): Promise<{ commands: ClusterCommand[]; changed: boolean }> {
    const expired = await expireCommands(trx, session.clusterId);
    const name = expired.length > 0 ? ((await findClusterRow(trx, session.clusterId))?.name ?? '') : '';
    const cluster = { id: session.clusterId, organizationId: session.organizationId, name };
    for (const row of expired) {
      await recordClusterChange(trx, audit, {
        cluster,
        action: 'cluster.command.expire',
        actor: agentActor(cluster),
        details: { commandId: row.id, command: row.name },
      });
    }
    const commands = (await takeQueuedCommands(trx, session.clusterId, COMMANDS_PER_CALL)).map(rowToCommand);
    return { commands, changed: expired.length > 0 || commands.length > 0 };
  }

  /**
   * When each cluster's workflow was last signalled by this process: while the row still says Disconnected (the
   * workflow's activity has not run yet), later heartbeats do not signal again within this pause, so a slow worker
   * cannot turn every heartbeat into a signal.
   */
  const lastSignalMs = new Map<string, number>();
  const signalPauseMs = Math.min(30_000, config.disconnectAfterMs / 4);

  /** Signal-with-start of the cluster's heartbeat workflow; a failure is logged and the next heartbeat retries. */
  async function signalMonitor(clusterId: string, name: string, organizationId: string): Promise<void> {
    const now = Date.now();
    if (now - (lastSignalMs.get(clusterId) ?? 0) < signalPauseMs) return;
    lastSignalMs.set(clusterId, now);
    await deps.workflows
      .signalWithStart(clusterHeartbeatWorkflowType, {
        signal: agentHeartbeatSignal,
        signalArgs: [],
        workflowId: clusterHeartbeatWorkflowId(clusterId),
        args: [{ clusterId, windowMs: config.disconnectAfterMs, checksPerRun: config.heartbeatChecksPerRun }],
        labels: { organizationId },
        summary: `cluster ${name}: agent heartbeat monitor`,
      })
      .catch((err: unknown) => {
        lastSignalMs.delete(clusterId);
        deps.log.warn('heartbeat workflow not signalled', errorFields(err));
      });
  }

  return {
    /**
     * Connected clusters silent for two windows have lost their heartbeat workflow (terminated by hand, say): the
     * signal restarts it, and its first check makes the transition. Harmless for a running one (a stale signal).
     */
    async reconcileSilent(): Promise<number> {
      const silent = await silentConnectedClusters(db, 2 * config.disconnectAfterMs, 500);
      for (const c of silent) await signalMonitor(c.id, c.name, c.organization_id);
      return silent.length;
    },

    /** One-time join token -> a new agent credential (shown once); older credentials end after the overlap. */
    async register(joinToken: string): Promise<{ clusterId: string; agentCredential: string }> {
      if (!isWellFormed(JOIN_TOKEN_PREFIX, joinToken)) throw new Unauthorized('invalid or used join token');
      return db.transaction(async (trx) => {
        const joined = await consumeJoinToken(trx, hashSecret(joinToken));
        if (!joined) throw new Unauthorized('invalid or used join token');
        const agentCredential = mintSecret(AGENT_CREDENTIAL_PREFIX);
        const ids = { organizationId: joined.organization_id, clusterId: joined.cluster_id };
        const keep = await insertAgentCredential(trx, ids, hashSecret(agentCredential));
        await endAgentCredentials(trx, joined.cluster_id, keep, config.credentialOverlapMs);
        const name = (await findClusterRow(trx, joined.cluster_id))?.name ?? '';
        const cluster = { id: joined.cluster_id, organizationId: joined.organization_id, name };
        await recordClusterChange(trx, audit, {
          cluster,
          action: 'cluster.agent.register',
          actor: agentActor(cluster),
        });
        return { clusterId: joined.cluster_id, agentCredential };
      });
    },

    /** Every call: a credential that is unknown, rotated out past its overlap or of a deleted cluster is refused. */
    async authenticate(credential: string): Promise<AgentSession> {
      const found = isWellFormed(AGENT_CREDENTIAL_PREFIX, credential)
        ? await findCredentialCluster(db, hashSecret(credential))
        : null;
      if (!found) throw new Unauthorized('invalid or expired agent credential');
      // Counted per cluster once the credential is known: a looping or hostile agent cannot flood the database.
      const { perCluster, windowMs } = config.agentRate;
      await deps.limiter.hit([{ key: `agent:cluster:${found.cluster_id}`, limit: perCluster }], windowMs);
      return { clusterId: found.cluster_id, organizationId: found.organization_id };
    },

    /**
     * Records the heartbeat on the row; signals the heartbeat workflow only when the row was Disconnected (the edge),
     * and answers with the commands waiting for the agent.
     */
    async heartbeat(session: AgentSession, facts: HeartbeatFacts): Promise<{ commands: ClusterCommand[] }> {
      checkFacts(facts);
      const beat = await db.transaction(async (trx) => {
        const before = await recordHeartbeat(trx, session.clusterId, facts);
        if (!before) return null;
        const versionChanged = before.previous_version !== facts.kubernetesVersion;
        if (versionChanged) {
          const cluster = { id: session.clusterId, organizationId: session.organizationId, name: before.name };
          await followClusterVersion(trx, audit, cluster, facts.kubernetesVersion);
        }
        const delivered = await deliverCommands(trx, session);
        // A plain heartbeat of a Connected cluster only moves a timestamp the next heartbeat rewrites: its commit need
        // not wait for the WAL flush (losing it in a crash is harmless). Anything else commits durably.
        if (before.previous_status === 'Connected' && !versionChanged && !delivered.changed) {
          await trx.raw('SET LOCAL synchronous_commit = off');
        }
        return { before, commands: delivered.commands };
      });
      if (!beat) throw new Unauthorized('invalid or expired agent credential');
      // A failed signal is retried by a later heartbeat: the row still says Disconnected until the workflow acts.
      if (beat.before.previous_status === 'Disconnected')
        await signalMonitor(session.clusterId, beat.before.name, session.organizationId);
      return { commands: beat.commands };
    },

    pullCommands: async (session: AgentSession) =>
      (await db.transaction((trx) => deliverCommands(trx, session))).commands,

    ...createAgentReports({ db, audit }),
  };
}
