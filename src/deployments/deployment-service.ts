import type { AuditService } from '../audit/audit-service';
import type { Db } from '../db/knex';
import type { PageRequest } from '../db/pagination';
import { NotFound } from '../errors';
import { applicationName } from '../delivery-layout/application-name';
import { orgEntry, type OrgCaller } from '../iam/caller';
import { findProjectEnvironment } from '../projects/project-environment-repository';
import type { ProjectService } from '../projects/project-service';
import {
  matrixPage,
  positionNumber,
  setSoakSeconds,
  soakSeconds,
  type DeployedTargetRow,
  type MatrixFilter,
} from './deployed-state-repository';

export type DeploymentService = ReturnType<typeof createDeploymentService>;

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** One cell of the matrix: what the commit path last wrote (desired), what the controller says (live), verified. */
export function deploymentView(project: string, r: DeployedTargetRow) {
  const desiredPosition = positionNumber(r.desired_position);
  const livePosition = positionNumber(r.live_position);
  return {
    tenant: r.tenant_slug,
    environment: r.environment,
    service: r.service,
    application: applicationName({ project, tenant: r.tenant_slug, environment: r.environment, service: r.service }),
    desired: r.desired_revision
      ? {
          version: r.desired_version,
          revision: r.desired_revision,
          digest: r.desired_digest,
          since: iso(r.desired_at),
          by: { kind: r.source_kind, id: r.source_id, actor: r.actor },
        }
      : null,
    live: r.live_revision
      ? {
          version: r.live_version,
          revision: r.live_revision,
          syncStatus: r.sync_status,
          healthStatus: r.health_status,
          reportedAt: iso(r.reported_at),
        }
      : null,
    /** The live revision carries the desired content (the same commit or a later one). */
    current: desiredPosition !== null && livePosition !== null && livePosition >= desiredPosition,
    healthySince: iso(r.healthy_since),
  };
}

/**
 * What runs where (GET /api/v2/projects/{slug}/deployments): the matrix of tenants, environments and services with
 * desired and live versions, sync, health, since when and by what; and the soak time a version spends verified in an
 * environment before a promotion may take it on.
 */
export function createDeploymentService(deps: {
  db: Db;
  audit: AuditService;
  projects: Pick<ProjectService, 'projectOf'>;
}) {
  const { db } = deps;
  return {
    async matrix(caller: OrgCaller, slug: string, filter: MatrixFilter, page: PageRequest) {
      const project = await deps.projects.projectOf(caller, slug);
      const result = await matrixPage(db, caller.organizationId, project.id, filter, page);
      return { items: result.items.map((r) => deploymentView(project.slug, r)), nextCursor: result.nextCursor };
    },

    async soakTime(caller: OrgCaller, slug: string, environment: string) {
      const project = await deps.projects.projectOf(caller, slug);
      if (!(await findProjectEnvironment(db, project.id, environment))) throw new NotFound('environment not found');
      return { environment, seconds: await soakSeconds(db, project.id, environment) };
    },

    async setSoakTime(caller: OrgCaller, slug: string, environment: string, seconds: number) {
      const project = await deps.projects.projectOf(caller, slug);
      if (!(await findProjectEnvironment(db, project.id, environment))) throw new NotFound('environment not found');
      await db.transaction(async (trx) => {
        const before = await soakSeconds(trx, project.id, environment);
        await setSoakSeconds(trx, {
          organizationId: caller.organizationId,
          projectId: project.id,
          environment,
          seconds,
        });
        await deps.audit.append(
          trx,
          orgEntry(caller, {
            action: 'deployment.soak.update',
            category: 'configuration',
            projectId: project.id,
            resourceType: 'project',
            resourceId: project.id,
            details: { project: project.slug, environment, seconds, before },
          }),
        );
      });
      return { environment, seconds };
    },
  };
}
