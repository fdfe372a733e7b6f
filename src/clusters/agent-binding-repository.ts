import type { Queryable } from '../db/knex';
import { insertOne } from '../db/owned-rows';
import { keysetPage, type Page, type PageRequest } from '../db/pagination';
import { readRows, rowsQuery, type RowsQuery } from '../db/rows-together';

/** Which project, tenants and environments (rows of the projects module, by id) a cluster serves. */
export interface BindingRow {
  id: string;
  organization_id: string;
  cluster_id: string;
  project_id: string;
  tenant_ids: string[];
  environment_ids: string[];
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = [
  'id',
  'organization_id',
  'cluster_id',
  'project_id',
  'tenant_ids',
  'environment_ids',
  'created_at',
  'updated_at',
];

export async function insertBinding(
  db: Queryable,
  input: {
    organizationId: string;
    clusterId: string;
    projectId: string;
    tenantIds: string[];
    environmentIds: string[];
  },
): Promise<BindingRow> {
  return insertOne<BindingRow>(
    db('agent_bindings')
      .insert({
        organization_id: input.organizationId,
        cluster_id: input.clusterId,
        project_id: input.projectId,
        tenant_ids: input.tenantIds,
        environment_ids: input.environmentIds,
      })
      .returning(COLUMNS),
    'this cluster is already bound to this project',
    'cluster or project not found',
  );
}

export async function findBinding(db: Queryable, organizationId: string, id: string): Promise<BindingRow | null> {
  return (
    ((await db('agent_bindings').where({ organization_id: organizationId, id }).first(COLUMNS)) as
      BindingRow | undefined) ?? null
  );
}

export function listBindings(
  db: Queryable,
  organizationId: string,
  page: PageRequest,
  clusterId?: string,
): Promise<Page<BindingRow>> {
  const rows = db('agent_bindings').where({ organization_id: organizationId }).select(COLUMNS);
  if (clusterId) void rows.where({ cluster_id: clusterId });
  return keysetPage<BindingRow, BindingRow>(
    rows,
    ['cluster_id', 'id'],
    page,
    (r) => [r.cluster_id, r.id],
    (r) => r,
  );
}

export async function deleteBinding(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await db('agent_bindings').where({ organization_id: organizationId, id }).delete()) > 0;
}

/** The project environment ids every binding of the cluster names (what follows its agent's version). */
export async function boundEnvironmentIds(db: Queryable, clusterId: string): Promise<string[]> {
  const rows = (await db('agent_bindings')
    .where({ cluster_id: clusterId })
    .select(db.raw('unnest(environment_ids) AS id'))) as { id: string }[];
  return [...new Set(rows.map((r) => r.id))];
}

/** A project's bindings with their cluster's name, oldest first (what the delivery generator resolves). */
export function projectBindingRows(
  db: Queryable,
  organizationId: string,
  projectId: string,
): RowsQuery<{ clusterName: string; tenantIds: string[]; environmentIds: string[] }> {
  const query = db('agent_bindings as b')
    .join('clusters as c', 'c.id', 'b.cluster_id')
    .where({ 'b.organization_id': organizationId, 'b.project_id': projectId })
    .orderBy([{ column: 'b.created_at' }, { column: 'b.id' }])
    .select('c.name', 'b.tenant_ids', 'b.environment_ids');
  return rowsQuery(query, [], (r: { name: string; tenant_ids: string[]; environment_ids: string[] }) => ({
    clusterName: r.name,
    tenantIds: r.tenant_ids,
    environmentIds: r.environment_ids,
  }));
}

export function projectBindings(db: Queryable, organizationId: string, projectId: string) {
  return readRows(projectBindingRows(db, organizationId, projectId));
}
