import type { OrgCaller } from '../iam/caller';
import { NotFound } from '../errors';
import type { Db } from '../db/knex';
import type { ProjectTenantService } from '../projects/project-tenant-service';
import { loadProject } from '../gitops/delivery-model';
import type { WorkloadSources } from '../gitops/workload-sources';
import { groupChanges } from '../gitops/delivery-service';
import { readTree, resolveRef } from '../git/git-plumbing';
import { renderAll } from '../gitops/manifests';
import { MAIN_BRANCH, type RepositoryStore } from '../git/repository-store';
import { versionSummary } from '../deployments/version-change';
import { lastVerifiedPoint } from '../deployments/rollback-point';
import { withReleaseChanges } from './release-changes';
import { rollbackPoint } from './rollback-plan';
import { valuesAt } from '../deployments/workload-values';
import { releaseVersions } from './release-versions';
import { findRelease, targetHistory } from './release-repository';

export interface RollbackPlannerDeps {
  db: Db;
  tenants: Pick<ProjectTenantService, 'get'>;
  publicUrl: string;
  sources: WorkloadSources;
  repositories: RepositoryStore;
}

/** A rollback's plan, before anything is created: what it restores and what that changes (preview and create alike). */
export function createRollbackPlanner(deps: RollbackPlannerDeps) {
  const { db } = deps;

  /**
   * What a rollback restores: the release asked for, or by default the last state verified Healthy before what runs
   * now, whatever path deployed either (deployed state, src/deployments/rollback-point.ts); a target with no recorded
   * deployed state falls back to its last Healthy release before the current one.
   */
  async function restorePoint(
    caller: OrgCaller,
    target: { projectId: string; tenantId: string; environment: string },
    releaseId: string | undefined,
  ) {
    const verified = releaseId === undefined ? await lastVerifiedPoint(db, target) : null;
    if (verified) {
      const release =
        verified.kind === 'release' && verified.sourceId
          ? await findRelease(db, caller.organizationId, verified.sourceId)
          : null;
      return {
        commitSha: verified.commitSha,
        releaseId: release?.id ?? null,
        kind: verified.kind,
        sourceId: verified.sourceId,
        title: release?.title ?? `${verified.kind} ${verified.commitSha.slice(0, 12)}`,
        createdAt: release?.created_at.toISOString() ?? verified.verifiedAt,
        versions: verified.versions,
        verifiedAt: verified.verifiedAt,
      };
    }
    const history = await targetHistory(db, {
      project_id: target.projectId,
      tenant_id: target.tenantId,
      environment: target.environment,
    });
    const row = rollbackPoint(history, releaseId);
    return {
      commitSha: row.commit_sha as string,
      releaseId: row.id,
      kind: 'release',
      sourceId: row.id,
      title: row.title,
      createdAt: row.created_at.toISOString(),
      versions: null,
      verifiedAt: null,
    };
  }

  /**
   * A rollback of one tenant and environment: the release it restores, the values that release ran (read back from
   * its commit), the target's files now and as the rollback would render them.
   */
  async function rollbackPlan(caller: OrgCaller, tenantId: string, environment: string, releaseId?: string) {
    const tenant = await deps.tenants.get(caller, tenantId);
    const loaded = await loadProject(db, caller.organizationId, tenant.projectId, {
      publicUrl: deps.publicUrl,
      sources: deps.sources,
    });
    if (!loaded) throw new NotFound('tenant not found');
    if (!loaded.environments.some((e) => e.environment === environment)) {
      throw new NotFound(`environment ${environment} is not an environment of this project`);
    }
    const point = await restorePoint(
      caller,
      { projectId: tenant.projectId, tenantId: tenant.id, environment },
      releaseId,
    );
    const repo = deps.repositories.pathOf(caller.organizationId, tenant.projectId);
    const dirs = [`tenants/${tenant.slug}/${environment}/`, `applications/${tenant.slug}/${environment}/`];
    const keep = (file: string) => dirs.some((dir) => file.startsWith(dir));
    const then = await readTree(repo, point.commitSha, '', keep);
    const changes = valuesAt(
      then,
      tenant.slug,
      environment,
      loaded.workloads.map((w) => w.name),
    );
    const current = await readTree(repo, await resolveRef(repo, MAIN_BRANCH), '', keep);
    const rendered = renderAll(
      withReleaseChanges(loaded.model, tenant.slug, environment, changes),
      (t) => t.tenant === tenant.slug && t.environment === environment,
    );
    const diff = groupChanges(loaded.project.slug, current, rendered, {
      tenant: tenant.slug,
      environment,
      changedOnly: true,
    });
    const versions = versionSummary(releaseVersions(loaded.model, tenant.slug, environment, changes));
    return { project: loaded.project, tenant, point, changes, diff, versions };
  }

  return { rollbackPlan };
}
