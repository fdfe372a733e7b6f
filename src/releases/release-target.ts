import { isUuid } from '../db/uuid';
import { InvalidInput } from '../errors';
import type { LoadedProject } from '../gitops/delivery-model';
import { movedWorkloads } from '../gitops/target-operation';
import type { ProjectTenant } from '../projects/project-tenant-repository';
import type { WorkloadChange } from '../projects/workload-spec';
import { checkReleaseChanges } from './release-changes';

interface TargetRequest {
  tenantId: string;
  environment: string;
  changes?: WorkloadChange[];
}

/**
 * The workloads a release request changes (undefined: it changes none, so every one): what its project is loaded with,
 * before its tenant is known.
 */
export function requestedWorkloads(input: TargetRequest): string[] | undefined {
  return movedWorkloads([{ tenant: '', changes: input.changes ?? [] }]);
}

/**
 * The project's tenant a reference names: its id, its slug (any case) or its catalogue tenant's id, as
 * findProjectTenantsByRef matches it.
 */
function tenantByRef(tenants: readonly ProjectTenant[], ref: string): ProjectTenant | undefined {
  const key = ref.toLowerCase();
  const uuid = isUuid(key);
  return (
    (uuid && tenants.find((t) => t.id === key)) ||
    tenants.find((t) => t.slug === key) ||
    (uuid ? tenants.find((t) => t.catalogueTenantId === key) : undefined)
  );
}

/**
 * The tenant, environment and changes a release request names, checked against its project as loaded with
 * `requestedWorkloads` (400 naming the fault): no read of its own (issue 46: the create call's statements).
 */
export function releaseTarget(
  loaded: Pick<LoadedProject, 'tenants' | 'environments' | 'workloads'>,
  input: TargetRequest,
): { tenant: ProjectTenant; environment: string; changes: WorkloadChange[] } {
  const tenant = tenantByRef(loaded.tenants, input.tenantId);
  if (!tenant) throw new InvalidInput(`tenantId ${input.tenantId} is not a tenant of this project`);
  const { environment } = input;
  if (!loaded.environments.some((e) => e.environment === environment)) {
    throw new InvalidInput(`environment ${environment} is not an environment of this project`);
  }
  const changes = input.changes ?? [];
  // A change naming a workload the project lacks finds it missing from the loaded ones (they are the named ones).
  checkReleaseChanges(
    loaded.workloads.map((w) => w.name),
    changes,
  );
  return { tenant, environment, changes };
}
