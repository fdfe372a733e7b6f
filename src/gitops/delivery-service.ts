import { Conflict, InvalidInput } from '../errors';
import type { OrgCaller } from '../iam/caller';
import type { Project } from '../projects/project-repository';
import type { ProjectService } from '../projects/project-service';
import type { Db } from '../db/knex';
import type { ValidationEngine } from '../validation';
import { applicationName } from '../delivery-layout/application-name';
import { destinationOf } from './argocd-objects';
import type { CommitClient } from './commit-client';
import type { CommitGate } from './commit-operation';
import { managedChanges } from './commit-operation';
import { buildTreeAhead } from './generate-ahead';
import { loadProject, type LoadedProject } from './delivery-model';
import { bootstrapManifests } from './bootstrap';
import { validateDelivery, validateDeliveryInTurns } from './delivery-validation';
import { readBranch } from '../git/commit-writer';
import { readTree } from '../git/git-plumbing';
import { renderAll, type DeliveryModel } from './manifests';
import { isManaged, targetOf, type Target } from '../delivery-layout/target-paths';
import type { WorkloadSources } from './workload-sources';
import type { RepositoryStore } from '../git/repository-store';
import { unifiedDiff } from './unified-diff';

export type FileStatus = 'added' | 'modified' | 'deleted' | 'unchanged';

export interface PreviewFilter {
  tenant?: string;
  environment?: string;
  service?: string;
  /** Leave unchanged files out (default false for preview). */
  changedOnly?: boolean;
}

export interface DeliveryDeps {
  db: Db;
  projects: ProjectService;
  repositories: RepositoryStore;
  validation: ValidationEngine;
  commit: CommitClient;
  publicUrl: string;
  sources: WorkloadSources;
}

const matches = (t: Target, f: PreviewFilter) =>
  (!f.tenant || f.tenant === t.tenant) &&
  (!f.environment || f.environment === t.environment) &&
  (!f.service || f.service === t.service);

/** Where each selected tenant-and-environment pair deploys: its cluster key and Argo CD destination. */
function destinationsOf(model: DeliveryModel, filter: PreviewFilter) {
  return model.tenants.flatMap((tenant) =>
    model.environments
      .filter((e) => matches({ tenant, environment: e.slug, service: filter.service ?? '' }, filter))
      .map((e) => {
        const { cluster, argo } = destinationOf(model, { tenant, environment: e.slug });
        return { tenant, environment: e.slug, cluster, ...argo };
      }),
  );
}

const statusOf = (before: string | null, after: string | null): FileStatus =>
  before === null ? 'added' : after === null ? 'deleted' : before === after ? 'unchanged' : 'modified';

const managedPaths = (current: Map<string, string>, rendered: Map<string, string>) =>
  [...new Set([...rendered.keys(), ...[...current.keys()].filter(isManaged)])].sort();

/** How many generated files generate would add, modify, delete or leave (no diffs: generate answers counts only). */
function countChanges(current: Map<string, string>, rendered: Map<string, string>) {
  const counts: Record<FileStatus, number> = { added: 0, modified: 0, deleted: 0, unchanged: 0 };
  for (const path of managedPaths(current, rendered))
    counts[statusOf(current.get(path) ?? null, rendered.get(path) ?? null)] += 1;
  return counts;
}

/** Generated files against the repository, grouped by tenant, environment and service. */
export function groupChanges(
  project: string,
  current: Map<string, string>,
  rendered: Map<string, string>,
  filter: PreviewFilter,
) {
  const groups = new Map<string, Target & { application: string; files: unknown[] }>();
  const counts: Record<FileStatus, number> = { added: 0, modified: 0, deleted: 0, unchanged: 0 };
  // The project's own Argo CD files (AppProjects, bootstrap roots) belong to no target: shown when nothing is filtered.
  const projectFiles: { path: string; status: FileStatus; content: string | null; diff: string }[] = [];
  const unfiltered = !filter.tenant && !filter.environment && !filter.service;
  for (const path of managedPaths(current, rendered)) {
    const target = targetOf(path);
    if (!target && !unfiltered) continue;
    if (target && !matches(target, filter)) continue;
    const before = current.get(path) ?? null;
    const after = rendered.get(path) ?? null;
    const status = statusOf(before, after);
    counts[status] += 1;
    if (status === 'unchanged' && filter.changedOnly) continue;
    if (!target) {
      projectFiles.push({ path, status, content: after, diff: unifiedDiff(path, before, after) });
      continue;
    }
    const key = `${target.tenant}/${target.environment}/${target.service}`;
    let group = groups.get(key);
    if (!group) {
      group = { ...target, application: applicationName({ project, ...target }), files: [] };
      groups.set(key, group);
    }
    group.files.push({ path, status, content: after, diff: unifiedDiff(path, before, after) });
  }
  return { counts, targets: [...groups.values()], projectFiles };
}

export type DeliveryService = ReturnType<typeof createDeliveryService>;

/** Delivery preview and generate (the validation policy of the project decides whether errors block). */
export function createDeliveryService(deps: DeliveryDeps) {
  const { db, projects, repositories } = deps;

  async function state(project: Project) {
    const loaded = (await loadProject(db, project.organizationId, project.id, deps)) as LoadedProject;
    const repo = repositories.pathOf(project.organizationId, project.id);
    const head = (await repositories.exists(project.organizationId, project.id)) ? await readBranch(repo) : null;
    const current = await readTree(repo, head);
    return { loaded, repo, head, current, rendered: renderAll(loaded.model) };
  }

  /** The files validated for the environments that ask for it on this action, under the project's policy. */
  function validate(
    project: Project,
    loaded: LoadedProject,
    files: Map<string, string>,
    on: 'validateOnPreview' | 'validateOnGenerate',
  ) {
    return validateDelivery(
      deps.validation,
      files,
      loaded.environments,
      (e) => e.delivery[on],
      project.policy.validation,
    );
  }

  return {
    async preview(caller: OrgCaller, slug: string, filter: PreviewFilter) {
      const project = await projects.projectOf(caller, slug);
      const { loaded, head, current, rendered } = await state(project);
      const selected = rendered.filtered((path) => {
        const target = targetOf(path);
        return target !== null && matches(target, filter);
      });
      const validation = validate(project, loaded, selected, 'validateOnPreview');
      return {
        commit: head,
        digest: rendered.digest(),
        destinationConflicts: loaded.destinationConflicts,
        destinations: destinationsOf(loaded.model, filter),
        ...groupChanges(project.slug, current, rendered, filter),
        validation,
      };
    },

    /** The manifests to apply once to the Argo CD of one cluster, or of a hub when null (src/gitops/bootstrap.ts). */
    async bootstrap(caller: OrgCaller, slug: string, cluster: string | null, key: string | null): Promise<string> {
      const project = await projects.projectOf(caller, slug);
      const loaded = (await loadProject(db, project.organizationId, project.id, deps)) as LoadedProject;
      return bootstrapManifests(loaded, cluster, key);
    },

    /**
     * Validates (environments with "validate on generate"), applies the policy, and commits the whole generated tree
     * in one commit. `blocked` answers carry the results and commit nothing. The commit is prepared while the files
     * are validated (issue 46: its tree built on the other core, its rows sent to PostgreSQL), and lands only once
     * the validation let it (its CommitGate).
     */
    async generate(caller: OrgCaller, slug: string, body: { message?: string }, key?: string) {
      const project = await projects.projectOf(caller, slug);
      const { loaded, repo, head, current, rendered } = await state(project);
      if (loaded.environments.length === 0 || loaded.tenants.length === 0 || loaded.workloads.length === 0) {
        throw new InvalidInput('the project needs at least one environment, tenant and workload to generate');
      }
      if (loaded.destinationConflicts.length > 0) throw new Conflict(loaded.destinationConflicts.join('; '));
      const counts = countChanges(current, rendered);
      // Nothing to write: answer without a commit (the commit path would find the same and commit nothing).
      if (counts.added + counts.modified + counts.deleted === 0) {
        const validation = validate(project, loaded, rendered, 'validateOnGenerate');
        return { blocked: validation.blocked, commit: null, created: false, changes: counts, validation };
      }
      // The commit's tree is built on the other core while this one validates; forgotten once this answers.
      const forget = buildTreeAhead(repo, head, () => rendered.digest(), managedChanges(current, rendered));
      const digest = rendered.digest();
      let open: (details: Record<string, unknown> | null) => void = () => undefined;
      const gate: CommitGate = new Promise((resolve) => (open = resolve));
      const committing = deps
        .commit(caller, project, {
          message: body.message ?? `Generate delivery manifests for ${project.slug}`,
          idempotencyKey: key,
          operation: { type: 'generate', digest, details: { changes: counts } },
          gate,
        })
        .then(
          (outcome) => ({ outcome }),
          (error: unknown) => ({ error }),
        );
      try {
        const validation = await validateDeliveryInTurns(
          deps.validation,
          rendered,
          loaded.environments,
          (e) => e.delivery.validateOnGenerate,
          project.policy.validation,
        ).catch((err: unknown) => {
          open(null);
          return Promise.reject(err);
        });
        open(validation.blocked ? null : { validation: { ...validation.summary, blocked: false } });
        const committed = await committing;
        if (validation.blocked)
          return { blocked: true as const, commit: null, created: false, changes: counts, validation };
        if ('error' in committed) throw committed.error;
        const { sha, created } = committed.outcome;
        return { blocked: false as const, commit: sha, created, changes: counts, validation };
      } finally {
        await committing;
        forget();
      }
    },
  };
}
