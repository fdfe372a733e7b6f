import type { Queryable } from '../db/knex';

export interface DeploymentStatus {
  organizationId: string;
  projectId: string;
  tenantId: string;
  tenant: string;
  environment: string;
  service: string;
  syncStatus: string;
  healthStatus: string;
  revision: string;
  namespace: string;
  reportedAt: Date;
}

interface Row {
  organization_id: string;
  project_id: string;
  tenant_id: string;
  tenant_slug: string;
  environment: string;
  service: string;
  sync_status: string;
  health_status: string;
  revision: string;
  namespace: string;
  reported_at: Date;
  updated_at: Date;
}

const toStatus = (r: Row): DeploymentStatus => ({
  organizationId: r.organization_id,
  projectId: r.project_id,
  tenantId: r.tenant_id,
  tenant: r.tenant_slug,
  environment: r.environment,
  service: r.service,
  syncStatus: r.sync_status,
  healthStatus: r.health_status,
  revision: r.revision,
  namespace: r.namespace,
  reportedAt: r.reported_at,
});

/** Stores a report as the service's status (the deployed-state record decided it is not stale). */
export async function recordStatus(
  db: Queryable,
  s: Omit<DeploymentStatus, 'tenant'> & { tenant: string },
): Promise<void> {
  await db('deployment_statuses')
    .insert({
      organization_id: s.organizationId,
      project_id: s.projectId,
      tenant_id: s.tenantId,
      tenant_slug: s.tenant,
      environment: s.environment,
      service: s.service,
      sync_status: s.syncStatus,
      health_status: s.healthStatus,
      revision: s.revision,
      namespace: s.namespace,
      reported_at: s.reportedAt,
    })
    .onConflict(['project_id', 'tenant_id', 'environment', 'service'])
    .merge({
      sync_status: s.syncStatus,
      health_status: s.healthStatus,
      revision: s.revision,
      namespace: s.namespace,
      reported_at: s.reportedAt,
      updated_at: db.fn.now(),
    });
}

export async function statusesOf(
  db: Queryable,
  projectId: string,
  filter: { tenantId?: string; environment?: string; service?: string },
): Promise<DeploymentStatus[]> {
  const q = db('deployment_statuses').where({ project_id: projectId });
  if (filter.tenantId) q.andWhere({ tenant_id: filter.tenantId });
  if (filter.environment) q.andWhere({ environment: filter.environment });
  if (filter.service) q.andWhere({ service: filter.service });
  return ((await q.orderBy(['tenant_slug', 'environment', 'service'])) as Row[]).map(toStatus);
}
