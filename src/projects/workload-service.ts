import { Conflict, NotFound, Unprocessable } from '../errors';
import type { OrgCaller } from '../iam/caller';
import type { OrgDomainDeps } from '../iam/cross-org';
import { orgEntry } from '../iam/caller';
import type { Tx } from '../db/knex';
import type { Project } from './project-repository';
import type { ProjectService } from './project-service';
import {
  deleteWorkload,
  findWorkload,
  insertWorkload,
  listWorkloads,
  lockDependencyGraph,
  refuseWorkloadPastLimit,
  updateWorkload,
  type Workload,
} from './workload-repository';
import { namedOverrides } from './workload-override-names';
import { dependencyProblem } from './workload-order';
import {
  withDefaults,
  type SourceCheck,
  type WorkloadOverrides,
  type WorkloadSource,
  type WorkloadSpec,
} from './workload-spec';

export type WorkloadInput = Partial<WorkloadSpec> &
  Pick<WorkloadSpec, 'image'> & { name: string; overrides?: WorkloadOverrides; dependsOn?: string[] };
/** `source: null` removes the workload's source. */
export type WorkloadChanges = Partial<Omit<WorkloadSpec, 'source'>> & {
  source?: WorkloadSource | null;
  overrides?: WorkloadOverrides;
  dependsOn?: string[];
};

export type WorkloadService = ReturnType<typeof createWorkloadService>;

/** Workloads (services) of a project with their per-environment and per-tenant-and-environment overrides. */
export function createWorkloadService(deps: OrgDomainDeps & { projects: ProjectService; checkSource: SourceCheck }) {
  const { db, audit, projects } = deps;

  const record = (trx: Tx, caller: OrgCaller, action: string, project: Project, name: string, details = {}) =>
    audit.append(
      trx,
      orgEntry(caller, {
        action,
        category: 'configuration',
        resourceType: 'workload',
        resourceId: name,
        projectId: project.id,
        details: { project: project.slug, workload: name, ...details },
      }),
    );

  const named = (trx: Tx, caller: OrgCaller, project: Project, overrides: WorkloadOverrides) =>
    namedOverrides(trx, caller.organizationId, project.id, overrides);

  async function workloadOf(project: Project, name: string, trx: Tx | typeof db = db, forUpdate = false) {
    const workload = await findWorkload(trx, project.id, name, forUpdate);
    if (!workload) throw new NotFound('workload not found');
    return workload;
  }

  /** 422 naming an unknown workload or the cycle the project's dependencies would form with this one's. */
  async function checkedDependencies(trx: Tx, project: Project, name: string, dependsOn: string[]): Promise<string[]> {
    const unique = [...new Set(dependsOn)];
    const others = (await lockDependencyGraph(trx, project.id)).filter((n) => n.name !== name);
    const problem = dependencyProblem([...others, { name, dependsOn: unique }]);
    if (problem !== null) throw new Unprocessable(problem);
    return unique;
  }

  return {
    async list(caller: OrgCaller, projectSlug: string): Promise<Workload[]> {
      return listWorkloads(db, (await projects.projectOf(caller, projectSlug)).id);
    },

    async get(caller: OrgCaller, projectSlug: string, name: string): Promise<Workload> {
      return workloadOf(await projects.projectOf(caller, projectSlug), name);
    },

    create(caller: OrgCaller, projectSlug: string, input: WorkloadInput): Promise<Workload> {
      return db.transaction(async (trx) => {
        const project = await projects.projectOf(caller, projectSlug, trx);
        const { name, overrides, dependsOn, ...spec } = input;
        if (spec.source) await deps.checkSource(trx, caller.organizationId, spec.source);
        await refuseWorkloadPastLimit(trx, project.id);
        await insertWorkload(
          trx,
          { organizationId: caller.organizationId, projectId: project.id },
          {
            name,
            spec: withDefaults(spec),
            overrides: await named(trx, caller, project, overrides ?? {}),
            dependsOn: await checkedDependencies(trx, project, name, dependsOn ?? []),
          },
        );
        await record(trx, caller, 'workload.create', project, name, {
          image: spec.image,
          ...(dependsOn?.length ? { dependsOn } : {}),
        });
        return workloadOf(project, name, trx);
      });
    },

    /** Fields given replace the stored ones (`overrides` as a whole). */
    update(caller: OrgCaller, projectSlug: string, name: string, changes: WorkloadChanges): Promise<Workload> {
      return db.transaction(async (trx) => {
        const project = await projects.projectOf(caller, projectSlug, trx);
        const current = await workloadOf(project, name, trx, true);
        const { overrides, dependsOn, ...specChanges } = changes;
        const spec = withDefaults({ ...current, ...specChanges });
        if (specChanges.source) await deps.checkSource(trx, caller.organizationId, specChanges.source);
        await updateWorkload(trx, current.id, {
          spec,
          overrides: overrides && (await named(trx, caller, project, overrides)),
          dependsOn: dependsOn && (await checkedDependencies(trx, project, name, dependsOn)),
        });
        await record(trx, caller, 'workload.update', project, name, { changes });
        return workloadOf(project, name, trx);
      });
    },

    remove(caller: OrgCaller, projectSlug: string, name: string): Promise<void> {
      return db.transaction(async (trx) => {
        const project = await projects.projectOf(caller, projectSlug, trx);
        const current = await workloadOf(project, name, trx, true);
        const dependents = (await lockDependencyGraph(trx, project.id)).filter((n) => n.dependsOn.includes(name));
        if (dependents.length > 0) {
          const names = dependents.map((n) => n.name).join(', ');
          throw new Conflict(`workload ${name} is in the dependsOn of ${names}; remove it there first`);
        }
        await deleteWorkload(trx, current.id);
        await record(trx, caller, 'workload.delete', project, name);
      });
    },
  };
}
