import type { Page, PageRequest } from '../db/pagination';
import type { OrgCaller } from '../iam/caller';
import { orgResource, type OrgDomainDeps } from '../iam/cross-org';
import { AGENT_CREDENTIAL_PREFIX, JOIN_TOKEN_PREFIX, mintSecret, secretHash } from '../machine-access/secret-value';
import { endAgentCredentials, insertAgentCredential, insertJoinToken } from './agent-credential-repository';
import { callerChangeRecorder } from './cluster-audit';
import { listDrift } from './drift-repository';
import {
  deleteCluster,
  findCluster,
  insertCluster,
  listClusters,
  updateCluster,
  type Cluster,
} from './cluster-repository';

export type ClusterService = ReturnType<typeof createClusterService>;

export interface ClusterServiceDeps extends OrgDomainDeps {
  joinTokenTtlMs: number;
  credentialOverlapMs: number;
}

/** Stored and compared as hex SHA-256: the value itself is shown once and never stored. */
export const hashSecret = (value: string): string => secretHash(value).toString('hex');

/** Clusters of the organization (/api/v2/clusters): CRUD, one-time join tokens and agent credential rotation. */
export function createClusterService(deps: ClusterServiceDeps) {
  const { db, audit } = deps;
  const { lookup, found } = orgResource(
    deps,
    { table: 'clusters', resourceType: 'cluster', category: 'cluster' },
    findCluster,
  );

  const record = callerChangeRecorder(audit);

  return {
    lookup,

    list: (caller: OrgCaller, page: PageRequest): Promise<Page<Cluster>> =>
      listClusters(db, caller.organizationId, page),

    get: (caller: OrgCaller, id: string) => lookup(caller, id),

    create(caller: OrgCaller, input: { name: string; description?: string }): Promise<Cluster> {
      return db.transaction(async (trx) => {
        const cluster = await insertCluster(trx, caller.organizationId, {
          name: input.name,
          description: input.description ?? '',
        });
        await record(trx, caller, cluster, 'cluster.create');
        return cluster;
      });
    },

    update(caller: OrgCaller, id: string, changes: { name?: string; description?: string }): Promise<Cluster> {
      return db.transaction(async (trx) => {
        const cluster = await lookup(caller, id, trx);
        found(await updateCluster(trx, caller.organizationId, cluster.id, changes));
        await record(trx, caller, cluster, 'cluster.update', { changes });
        return (await findCluster(trx, caller.organizationId, cluster.id)) ?? cluster;
      });
    },

    /** Its tokens, credentials, commands, drift records and bindings go with it (ON DELETE CASCADE). */
    delete(caller: OrgCaller, id: string): Promise<void> {
      return db.transaction(async (trx) => {
        const cluster = await lookup(caller, id, trx);
        found(await deleteCluster(trx, caller.organizationId, cluster.id));
        await record(trx, caller, cluster, 'cluster.delete');
      });
    },

    /** Resources whose live state differs from Git, from the agent's drift reports (`status` open or resolved). */
    async drift(caller: OrgCaller, id: string, page: PageRequest, status?: 'open' | 'resolved') {
      const cluster = await lookup(caller, id);
      return listDrift(db, caller.organizationId, cluster.id, page, status);
    },

    /** A one-time token an agent registers with (shown once, stored hashed, expiring after AGENT_JOIN_TOKEN_TTL). */
    createJoinToken(caller: OrgCaller, id: string): Promise<{ joinToken: string; expiresAt: string }> {
      return db.transaction(async (trx) => {
        const cluster = await lookup(caller, id, trx);
        const joinToken = mintSecret(JOIN_TOKEN_PREFIX);
        const expiresAt = await insertJoinToken(
          trx,
          { organizationId: caller.organizationId, clusterId: cluster.id },
          hashSecret(joinToken),
          deps.joinTokenTtlMs,
        );
        await record(trx, caller, cluster, 'cluster.join-token.create', { expiresAt: expiresAt.toISOString() });
        return { joinToken, expiresAt: expiresAt.toISOString() };
      });
    },

    /**
     * A new agent credential (shown once); every older one keeps working for AGENT_CREDENTIAL_OVERLAP so the agent
     * can be rolled onto the new one, then the agent protocol refuses it.
     */
    rotateCredential(
      caller: OrgCaller,
      id: string,
    ): Promise<{ agentCredential: string; previousCredentialsExpireAt: string }> {
      return db.transaction(async (trx) => {
        const cluster = await lookup(caller, id, trx);
        const agentCredential = mintSecret(AGENT_CREDENTIAL_PREFIX);
        const ids = { organizationId: caller.organizationId, clusterId: cluster.id };
        const keep = await insertAgentCredential(trx, ids, hashSecret(agentCredential));
        const ended = await endAgentCredentials(trx, cluster.id, keep, deps.credentialOverlapMs);
        const previousCredentialsExpireAt = new Date(Date.now() + deps.credentialOverlapMs).toISOString();
        await record(trx, caller, cluster, 'cluster.credential.rotate', {
          previousCredentials: ended,
          overlapMs: deps.credentialOverlapMs,
        });
        return { agentCredential, previousCredentialsExpireAt };
      });
    },
  };
}
