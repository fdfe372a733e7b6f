import { isUniqueViolation, type Queryable } from '../db/knex';
import { Conflict } from '../errors';
import { deleteOwned, insertOne, timestampsOf, updateOwned } from '../db/owned-rows';
import { keysetPage, type Page, type PageRequest } from '../db/pagination';

/** Spec "Cluster status": Connected while heartbeats arrive, Disconnected when the last is older than the window. */
export type ClusterStatus = 'Connected' | 'Disconnected';

export interface Cluster {
  id: string;
  name: string;
  description: string;
  status: ClusterStatus;
  lastHeartbeatAt: string | null;
  kubernetesVersion: string | null;
  agentVersion: string | null;
  /** The controller health the agent last reported (e.g. Healthy). */
  controllerHealth: string | null;
  /** The agent's last application sync and health report (the same facts as the controller webhook). */
  applications: ApplicationStatus[];
  applicationsReportedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ApplicationStatus {
  name: string;
  namespace: string;
  syncStatus: string;
  revision: string;
  healthStatus: string;
}

export interface ClusterRow {
  id: string;
  organization_id: string;
  name: string;
  description: string;
  status: ClusterStatus;
  last_heartbeat_at: Date | null;
  kubernetes_version: string | null;
  agent_version: string | null;
  controller_health: string | null;
  applications: ApplicationStatus[];
  applications_reported_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = [
  'id',
  'organization_id',
  'name',
  'description',
  'status',
  'last_heartbeat_at',
  'kubernetes_version',
  'agent_version',
  'controller_health',
  'applications',
  'applications_reported_at',
  'created_at',
  'updated_at',
];

export function rowToCluster(row: ClusterRow): Cluster {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    lastHeartbeatAt: row.last_heartbeat_at?.toISOString() ?? null,
    kubernetesVersion: row.kubernetes_version,
    agentVersion: row.agent_version,
    controllerHealth: row.controller_health,
    applications: row.applications,
    applicationsReportedAt: row.applications_reported_at?.toISOString() ?? null,
    ...timestampsOf(row),
  };
}

export async function insertCluster(
  db: Queryable,
  organizationId: string,
  input: { name: string; description: string },
): Promise<Cluster> {
  const row = await insertOne<ClusterRow>(
    db('clusters')
      .insert({ organization_id: organizationId, ...input })
      .returning(COLUMNS),
    'a cluster with this name already exists',
  );
  return rowToCluster(row);
}

export async function findCluster(db: Queryable, organizationId: string, id: string): Promise<Cluster | null> {
  const row = (await db('clusters').where({ organization_id: organizationId, id }).first(COLUMNS)) as
    ClusterRow | undefined;
  return row ? rowToCluster(row) : null;
}

/** By id alone: for the agent protocol and activities, whose credential or workflow already names the cluster. */
export async function findClusterRow(db: Queryable, id: string): Promise<ClusterRow | null> {
  return ((await db('clusters').where({ id }).first(COLUMNS)) as ClusterRow | undefined) ?? null;
}

export function listClusters(db: Queryable, organizationId: string, page: PageRequest): Promise<Page<Cluster>> {
  return keysetPage<ClusterRow, Cluster>(
    db('clusters').where({ organization_id: organizationId }).select(COLUMNS),
    ['name', 'id'],
    page,
    (r) => [r.name, r.id],
    rowToCluster,
  );
}

/** False when the cluster is gone; a name another cluster of the organization has is a conflict. */
export async function updateCluster(
  db: Queryable,
  organizationId: string,
  id: string,
  changes: { name?: string; description?: string },
): Promise<boolean> {
  try {
    return await updateOwned(db, 'clusters', organizationId, id, changes);
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict('a cluster with this name already exists');
    throw err;
  }
}

export function deleteCluster(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  return deleteOwned(db, 'clusters', organizationId, id);
}

export interface HeartbeatFacts {
  kubernetesVersion: string;
  agentVersion: string;
  controllerHealth: string;
}

/**
 * Records a heartbeat on the row (one UPDATE, no Temporal call) and answers the status before it: the caller signals
 * the heartbeat workflow only when that was Disconnected. The UPDATE takes the row lock, so it serialises with the
 * workflow's conditional Disconnected transition (whichever commits second sees the other's write).
 */
export async function recordHeartbeat(db: Queryable, clusterId: string, facts: HeartbeatFacts) {
  const rows = (await db.raw(
    `UPDATE clusters c SET last_heartbeat_at = now(), kubernetes_version = ?, agent_version = ?, controller_health = ?
       FROM (SELECT id, status, kubernetes_version FROM clusters WHERE id = ? FOR UPDATE) old
      WHERE c.id = old.id
      RETURNING old.status AS previous_status, old.kubernetes_version AS previous_version, c.organization_id, c.name`,
    [facts.kubernetesVersion, facts.agentVersion, facts.controllerHealth, clusterId],
  )) as {
    rows: { previous_status: ClusterStatus; previous_version: string | null; organization_id: string; name: string }[];
  };
  return rows.rows[0] ?? null;
}

/** Replaces the cluster's application report (the agent sends the whole set each time). */
export async function recordApplications(db: Queryable, clusterId: string, applications: ApplicationStatus[]) {
  await db('clusters')
    .where({ id: clusterId })
    .update({ applications: JSON.stringify(applications), applications_reported_at: db.fn.now() });
}

/**
 * A drift report is a newer fact than the last sync report: the applications it names are OutOfSync now (Argo CD's own
 * meaning of drift), in the drift report's transaction, so no reader sees open drift beside an application still
 * recorded Synced while the agent's next sync report is on its way. The row is locked first: a sync report committed
 * meanwhile is read, not overwritten with an older list.
 */
export async function markApplicationsOutOfSync(db: Queryable, clusterId: string, names: Set<string>) {
  if (names.size === 0) return;
  const row = (await db('clusters').where({ id: clusterId }).forUpdate().first('applications')) as
    Pick<ClusterRow, 'applications'> | undefined;
  if (!row) return;
  const drifted = (a: ApplicationStatus) => names.has(a.name) && a.syncStatus !== 'OutOfSync';
  if (!row.applications.some(drifted)) return;
  const applications = row.applications.map((a) => (drifted(a) ? { ...a, syncStatus: 'OutOfSync' } : a));
  await db('clusters')
    .where({ id: clusterId })
    .update({ applications: JSON.stringify(applications) });
}

/**
 * Connected when the last heartbeat is within the window and the row is not Connected yet: the row when this call
 * made the transition (the caller audits it), so a retried activity or a stale signal records nothing twice.
 */
export async function markConnectedIfRecent(db: Queryable, clusterId: string, windowMs: number) {
  const [row] = (await db('clusters')
    .where({ id: clusterId })
    .whereNot({ status: 'Connected' })
    .whereRaw("last_heartbeat_at > now() - (? * interval '1 millisecond')", [windowMs])
    .update({ status: 'Connected', updated_at: db.fn.now() })
    .returning(COLUMNS)) as ClusterRow[];
  return row ?? null;
}

/**
 * Disconnected when the last heartbeat is older than the window, judged by the database clock in the same
 * statement: a heartbeat committed meanwhile keeps the cluster Connected. The row when this call made the transition.
 */
export async function markDisconnectedIfSilent(db: Queryable, clusterId: string, windowMs: number) {
  const [row] = (await db('clusters')
    .where({ id: clusterId, status: 'Connected' })
    .andWhere((q) =>
      q
        .whereNull('last_heartbeat_at')
        .orWhereRaw("last_heartbeat_at <= now() - (? * interval '1 millisecond')", [windowMs]),
    )
    .update({ status: 'Disconnected', updated_at: db.fn.now() })
    .returning(COLUMNS)) as ClusterRow[];
  return row ?? null;
}

/** Connected clusters whose last heartbeat is older than `silentMs` (their heartbeat workflow should have acted). */
export async function silentConnectedClusters(db: Queryable, silentMs: number, limit: number) {
  return (await db('clusters')
    .where({ status: 'Connected' })
    .whereRaw("last_heartbeat_at < now() - (? * interval '1 millisecond')", [silentMs])
    .orderBy('last_heartbeat_at')
    .limit(limit)
    .select('id', 'name', 'organization_id')) as { id: string; name: string; organization_id: string }[];
}

/** The cluster's status and whether its last heartbeat is older than the window, by the database clock. */
export async function heartbeatState(db: Queryable, clusterId: string, windowMs: number) {
  const row = (await db('clusters')
    .where({ id: clusterId })
    .first(
      'status',
      'last_heartbeat_at',
      db.raw("(last_heartbeat_at IS NULL OR last_heartbeat_at <= now() - (? * interval '1 millisecond')) AS silent", [
        windowMs,
      ]),
    )) as { status: ClusterStatus; last_heartbeat_at: Date | null; silent: boolean } | undefined;
  return row ?? null;
}
