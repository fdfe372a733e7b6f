import { Unprocessable } from '../errors';
import type { Queryable } from '../db/knex';
import { listProjectEnvironments } from './project-environment-repository';
import { listProjectTenants } from './project-tenant-repository';
import { tenantSlugOf } from './tenant-ref';
import type { WorkloadOverride, WorkloadOverrides } from './workload-spec';

const unknown = (what: string, names: string[], known: string[]) =>
  new Unprocessable(
    `overrides name unknown ${what}(s) of the project: ${names.join(', ')} (the project has: ${known.join(', ') || 'none'})`,
  );

/**
 * A workload's overrides with every name checked against the project: environments by slug, tenants by slug, id or
 * catalogue id (as on every route), kept by slug. An unknown name, or one tenant named twice, answers 422.
 */
export async function namedOverrides(
  db: Queryable,
  organizationId: string,
  projectId: string,
  overrides: WorkloadOverrides,
): Promise<WorkloadOverrides> {
  const environments = (await listProjectEnvironments(db, projectId)).map((e) => e.environment);
  const tenants = await listProjectTenants(db, organizationId, projectId);
  const byTenant = Object.entries(overrides.tenants ?? {}).map(
    ([ref, perEnv]) => [tenantSlugOf(tenants, ref), perEnv] as const,
  );
  const slugs = new Set(tenants.map((t) => t.slug));
  const unknownTenants = byTenant.map(([slug]) => slug).filter((slug) => !slugs.has(slug));
  if (unknownTenants.length > 0) throw unknown('tenant', unknownTenants, [...slugs]);
  const twice = byTenant.map(([slug]) => slug).filter((slug, i, all) => all.indexOf(slug) !== i);
  if (twice.length > 0) throw new Unprocessable(`overrides name tenant ${twice[0]} twice`);
  const envNames = [
    ...Object.keys(overrides.environments ?? {}),
    ...byTenant.flatMap(([, perEnv]) => Object.keys(perEnv)),
  ];
  const unknownEnvs = [...new Set(envNames.filter((e) => !environments.includes(e)))];
  if (unknownEnvs.length > 0) throw unknown('environment', unknownEnvs, environments);
  if (overrides.tenants === undefined) return overrides;
  return { ...overrides, tenants: Object.fromEntries(byTenant) as Record<string, Record<string, WorkloadOverride>> };
}
