import type { Queryable } from '../db/knex';
import { InvalidInput } from '../errors';
import type { OrgCaller } from '../iam/caller';
import { findProjectEnvironment } from '../projects/project-environment-repository';
import type { Project } from '../projects/project-repository';
import type { ProjectTenantService } from '../projects/project-tenant-service';
import type { ProjectTenant } from '../projects/project-tenant-repository';
import { listWorkloads } from '../projects/workload-repository';
import type { WorkloadChange } from '../projects/workload-spec';
import { checkReleaseChanges } from './release-changes';

/** The tenant, environment and changes a release request names, checked against the project (400 naming the fault). */
export async function releaseTarget(
  db: Queryable,
  tenants: Pick<ProjectTenantService, 'inProject'>,
  caller: OrgCaller,
  project: Project,
  input: { tenantId: string; environment: string; changes?: WorkloadChange[] },
): Promise<{ tenant: ProjectTenant; environment: string; changes: WorkloadChange[] }> {
  const tenant = await tenants.inProject(caller, input.tenantId, project.id);
  if (!tenant) throw new InvalidInput(`tenantId ${input.tenantId} is not a tenant of this project`);
  const { environment } = input;
  if (!(await findProjectEnvironment(db, project.id, environment))) {
    throw new InvalidInput(`environment ${environment} is not an environment of this project`);
  }
  const changes = input.changes ?? [];
  checkReleaseChanges(
    (await listWorkloads(db, project.id)).map((w) => w.name),
    changes,
  );
  return { tenant, environment, changes };
}
