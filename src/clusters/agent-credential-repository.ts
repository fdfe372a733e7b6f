import type { Queryable } from '../db/knex';

/** Join tokens and agent credentials are stored as SHA-256 hex of the value only (shown once, never again). */

export async function insertJoinToken(
  db: Queryable,
  ids: { organizationId: string; clusterId: string },
  tokenHash: string,
  ttlMs: number,
): Promise<Date> {
  const [row] = (await db('cluster_join_tokens')
    .insert({
      organization_id: ids.organizationId,
      cluster_id: ids.clusterId,
      token_hash: tokenHash,
      expires_at: db.raw("now() + (? * interval '1 millisecond')", [ttlMs]),
    })
    .returning('expires_at')) as { expires_at: Date }[];
  return row!.expires_at;
}

/**
 * Uses a join token: one UPDATE that only succeeds for an unused, unexpired token, so two agents racing with the same
 * token cannot both register. The cluster it joins, or null.
 */
export async function consumeJoinToken(db: Queryable, tokenHash: string) {
  const [row] = (await db('cluster_join_tokens')
    .where({ token_hash: tokenHash })
    .whereNull('used_at')
    .where('expires_at', '>', db.fn.now())
    .update({ used_at: db.fn.now() })
    .returning(['cluster_id', 'organization_id'])) as { cluster_id: string; organization_id: string }[];
  return row ?? null;
}

export async function insertAgentCredential(
  db: Queryable,
  ids: { organizationId: string; clusterId: string },
  credentialHash: string,
): Promise<string> {
  const [row] = (await db('cluster_agent_credentials')
    .insert({ organization_id: ids.organizationId, cluster_id: ids.clusterId, credential_hash: credentialHash })
    .returning('id')) as { id: string }[];
  return row!.id;
}

/**
 * Every credential of the cluster that is still open-ended now ends after the overlap (a rotation), except `keepId`.
 * Ones already ending keep their earlier end.
 */
export async function endAgentCredentials(db: Queryable, clusterId: string, keepId: string, overlapMs: number) {
  return db('cluster_agent_credentials')
    .where({ cluster_id: clusterId })
    .whereNot({ id: keepId })
    .whereNull('expires_at')
    .update({ expires_at: db.raw("now() + (? * interval '1 millisecond')", [overlapMs]) });
}

/** The cluster a credential authenticates, while it is valid. */
export async function findCredentialCluster(db: Queryable, credentialHash: string) {
  const row = (await db('cluster_agent_credentials')
    .where({ credential_hash: credentialHash })
    .andWhere((q) => q.whereNull('expires_at').orWhere('expires_at', '>', db.fn.now()))
    .first('cluster_id', 'organization_id')) as { cluster_id: string; organization_id: string } | undefined;
  return row ?? null;
}
