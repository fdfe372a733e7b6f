import type { Queryable } from '../db/knex';
import { keysetPage, type Page, type PageRequest } from '../db/pagination';
import { chronological, TIME_KEYS, type TimeKey } from './time-key';

/** One field whose live value differs from Git: a JSON path with both values as the agent saw them. */
export interface DriftField {
  path: string;
  desired: string;
  live: string;
}

export interface DriftedResource {
  /** `<kind>/<namespace>/<name>`. */
  resource: string;
  application: string;
  fields: DriftField[];
}

export interface DriftRecord extends DriftedResource {
  id: string;
  status: 'open' | 'resolved';
  detectedAt: string;
  reportedAt: string;
  resolvedAt: string | null;
}

interface DriftRow {
  id: string;
  resource: string;
  application: string;
  fields: DriftField[];
  detected_at: Date;
  reported_at: Date;
  resolved_at: Date | null;
}

const COLUMNS = ['id', 'resource', 'application', 'fields', 'detected_at', 'reported_at', 'resolved_at'];

function rowToDrift(row: DriftRow): DriftRecord {
  return {
    id: row.id,
    resource: row.resource,
    application: row.application,
    fields: row.fields,
    status: row.resolved_at ? 'resolved' : 'open',
    detectedAt: row.detected_at.toISOString(),
    reportedAt: row.reported_at.toISOString(),
    resolvedAt: row.resolved_at?.toISOString() ?? null,
  };
}

/**
 * Applies one drift report (the complete set of resources drifted now): a resource without an open record opens one
 * (the caller records drift.detect for it), an open record the report no longer names is resolved, the others are
 * refreshed. Runs in the caller's transaction; the partial unique index keeps one open record per resource.
 */
export async function applyDriftReport(
  db: Queryable,
  ids: { organizationId: string; clusterId: string },
  resources: DriftedResource[],
): Promise<{ detected: DriftRecord[]; resolved: DriftRecord[] }> {
  const detected: DriftRecord[] = [];
  for (const r of resources) {
    const open = { cluster_id: ids.clusterId, resource: r.resource, resolved_at: null };
    const changes = { application: r.application, fields: JSON.stringify(r.fields), reported_at: db.fn.now() };
    const refreshed = await db('cluster_drift').where(open).update(changes);
    if (refreshed > 0) continue;
    const [row] = (await db('cluster_drift')
      .insert({ organization_id: ids.organizationId, cluster_id: ids.clusterId, resource: r.resource, ...changes })
      .returning(COLUMNS)) as DriftRow[];
    detected.push(rowToDrift(row!));
  }
  const resolved = (await db('cluster_drift')
    .where({ cluster_id: ids.clusterId })
    .whereNull('resolved_at')
    .whereNotIn(
      'resource',
      resources.map((r) => r.resource),
    )
    .update({ resolved_at: db.fn.now() })
    .returning(COLUMNS)) as DriftRow[];
  return { detected, resolved: resolved.map(rowToDrift) };
}

/** Drift records of a cluster, oldest detection first; `status` narrows to open or resolved ones. */
export function listDrift(
  db: Queryable,
  organizationId: string,
  clusterId: string,
  page: PageRequest,
  status?: 'open' | 'resolved',
): Promise<Page<DriftRecord>> {
  const rows = db('cluster_drift').where({ organization_id: organizationId, cluster_id: clusterId });
  if (status === 'open') void rows.whereNull('resolved_at');
  if (status === 'resolved') void rows.whereNotNull('resolved_at');
  return keysetPage<DriftRow & TimeKey & { id: string }, DriftRecord>(
    chronological(db, rows, COLUMNS, 'detected_at'),
    TIME_KEYS,
    page,
    (r) => [r.time_key, r.id],
    rowToDrift,
  );
}
