import type { SourceCheck } from './workload-spec';
import type { RepositoryStore } from '../git/repository-store';
import type { OrgDomainDeps } from '../iam/cross-org';
import { createProjectService } from './project-service';
import { createProjectTenantService } from './project-tenant-service';
import { createWorkloadService } from './workload-service';

export type ProjectDomain = ReturnType<typeof createProjectDomain>;

/** The project services, built once at the composition root: projects (with environments), tenants, workloads. */
export function createProjectDomain(
  deps: OrgDomainDeps & { repositories: RepositoryStore; publicUrl: string; checkSource: SourceCheck },
) {
  const projects = createProjectService(deps);
  return {
    projects,
    tenants: createProjectTenantService({ ...deps, projects }),
    workloads: createWorkloadService({ ...deps, projects }),
  };
}
