import type { AuditService } from '../src/audit/audit-service';
import type { Db, Tx } from '../src/db/knex';
import { DOMAIN_EVENT } from '../src/events/domain-event-repository';
import { agentActor, recordClusterChange } from '../src/clusters/cluster-audit';
import {
  findClusterRow,
  heartbeatState,
  markConnectedIfRecent,
  markDisconnectedIfSilent,
  type ClusterRow,
} from '../src/clusters/cluster-repository';
import type { HeartbeatCheck } from '../src/clusters/cluster-workflow-contract';

export interface ClusterHeartbeatActivityDeps {
  db: Db;
  audit: AuditService;
}

interface Target {
  clusterId: string;
  windowMs: number;
  workflowId: string;
}

function checkOf(row: ClusterRow | null): HeartbeatCheck {
  if (!row) return { state: 'gone', lastHeartbeatMs: null };
  return {
    state: row.status === 'Connected' ? 'connected' : 'disconnected',
    lastHeartbeatMs: row.last_heartbeat_at?.getTime() ?? null,
  };
}

/**
 * The two transitions of the heartbeat workflow. Each is one conditional UPDATE with its audit entry and domain event
 * in the same transaction; a retry (or a stale signal) finds the transition made or not due and records nothing.
 */
export function createClusterHeartbeatActivities(deps: ClusterHeartbeatActivityDeps) {
  const { db, audit } = deps;

  async function transition(
    target: Target,
    change: (trx: Tx) => Promise<ClusterRow | null>,
    action: string,
    event: (typeof DOMAIN_EVENT)['agentConnected' | 'agentDisconnected'],
  ): Promise<HeartbeatCheck> {
    return db.transaction(async (trx) => {
      const changed = await change(trx);
      if (!changed) return checkOf(await findClusterRow(trx, target.clusterId));
      await recordClusterChange(trx, audit, {
        cluster: { id: changed.id, organizationId: changed.organization_id, name: changed.name },
        action,
        actor: agentActor(changed),
        details: { lastHeartbeatAt: changed.last_heartbeat_at?.toISOString() ?? null },
        workflowId: target.workflowId,
        event,
      });
      return checkOf(changed);
    });
  }

  return {
    recordAgentConnected: (target: Target) =>
      transition(
        target,
        (trx) => markConnectedIfRecent(trx, target.clusterId, target.windowMs),
        'cluster.agent.connect',
        DOMAIN_EVENT.agentConnected,
      ),
    /** The common case (a newer heartbeat arrived) is one read, without a transaction. */
    checkAgentHeartbeat: async (target: Target): Promise<HeartbeatCheck> => {
      const state = await heartbeatState(db, target.clusterId, target.windowMs);
      if (state?.status === 'Connected' && !state.silent) {
        return { state: 'connected', lastHeartbeatMs: state.last_heartbeat_at?.getTime() ?? null };
      }
      return transition(
        target,
        (trx) => markDisconnectedIfSilent(trx, target.clusterId, target.windowMs),
        'cluster.agent.disconnect',
        DOMAIN_EVENT.agentDisconnected,
      );
    },
  };
}
