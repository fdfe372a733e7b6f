import type { Config } from '../config';
import type { ActionRoleTable } from '../iam/role-authorizer';
import type { ServiceProviders } from './service-provider';
import type { Services } from './services';

/** A periodic repair a worker process runs for a domain (src/temporal/row-reconciler.ts logs what it fixed). */
export interface Reconciler {
  name: string;
  /** Answers how many rows it repaired. */
  run(): Promise<number>;
  intervalMs: number;
}

/**
 * What one domain plugs into the platform (issue 29): a new domain writes `src/<domain>/module.ts` and adds it to
 * src/runtime/modules.ts, and the service resolution, the action vocabulary, the worker's reconcilers, the workflow
 * index check and the table-ownership check all read it from there. The layers above wire the rest by module name:
 * its routes in api/domain-routes.ts, its activities in activities/domain-activities.ts (a domain imports neither).
 */
export interface DomainModule {
  /** The folder under src/ the module lives in (the owner of its tables). */
  name: string;
  /** The tables its migrations create; only files of its folder query them (test/unit/architecture). */
  tables: readonly string[];
  /**
   * The organization-role floor of every action its routes declare; the vocabulary joins them with the kernel's
   * (src/iam/action-roles.ts) and refuses an action declared twice.
   */
  actions?: ActionRoleTable;
  /** Workflow types it starts; workflows/index.ts (the bundle the worker loads) is generated from these lists. */
  workflows?: readonly string[];
  /** Its section of the typed configuration (src/config), when it has one. */
  settings?: keyof Config;
  /**
   * The domain services it builds (`provide(needs, build)`), each also added to `DomainServices` by a
   * `declare module '../runtime/service-provider'` block in the manifest; src/runtime/domain-services.ts resolves
   * them in dependency order.
   */
  services?: ServiceProviders;
  /** What the worker repairs periodically, at the interval its own settings give. */
  reconcilers?(services: Services): Reconciler[];
}
