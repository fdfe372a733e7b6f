import type { DomainModule } from '../runtime/domain-module';
import { provide } from '../runtime/service-provider';
import { createGitopsDomain, type GitopsDomain } from './gitops-domain';
import { commitPathDepsOf, type CommitPathDeps } from './commit-path';
import { commitOperationKinds } from '../runtime/commit-operations';
import { createRepositoryStore, type RepositoryStore } from '../git/repository-store';
import { createVolumeGuard } from './volume-guard';
import { createWorkloadSources, type WorkloadSources } from './workload-sources';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Where hosted Git repositories live (src/git/repository-store.ts). */
    repositories: RepositoryStore;
    /** Renders workloads referencing an organization chart or kustomize base (src/gitops/workload-sources.ts). */
    sources: WorkloadSources;
    /** The one commit path of this process (src/gitops/commit-path.ts): its writes join the same passes. */
    commitPath: CommitPathDeps;
    /** Files, delivery, compare and bulk update over the hosted repositories (writes through the `git` queue). */
    gitops: GitopsDomain;
  }
}

/** What src/gitops plugs into the platform (src/runtime/domain-module.ts). */
export const gitopsModule = {
  name: 'gitops',
  tables: ['git_commits', 'git_remote_pushes', 'project_remotes', 'installation'],
  workflows: ['gitCommitWorkflow', 'gitPushWorkflow', 'repositoryMaintenanceWorkflow'],
  settings: 'gitops',
  services: {
    repositories: provide([], (core) => {
      const root = core.config.gitops.repositoriesDir;
      const guard = createVolumeGuard({ root, db: core.db, log: core.log });
      core.readiness.add({ name: 'git-volume', selfCheck: 'report', check: () => guard.check() });
      return createRepositoryStore(root, guard);
    }),
    sources: provide(['blobs', 'renderers'], (deps) =>
      createWorkloadSources({ blobs: deps.blobs, renderers: deps.renderers }),
    ),
    commitPath: provide(['repositories', 'sources', 'governance'], (deps) =>
      commitPathDepsOf(deps, commitOperationKinds()),
    ),
    gitops: provide(['sources', 'projects', 'repositories', 'governance', 'commitPath'], (deps) =>
      createGitopsDomain({
        db: deps.db,
        workflows: deps.workflows,
        taskQueuePrefix: deps.config.temporal.taskQueuePrefix,
        publicUrl: deps.config.publicUrl,
        sources: deps.sources,
        projects: deps.projects.projects,
        repositories: deps.repositories,
        validation: deps.validation,
        audit: deps.audit,
        secrets: deps.secrets,
        remoteAllowHttp: deps.config.gitops.remoteAllowHttp,
        outbound: deps.config.notifications.outbound,
        gate: deps.governance,
        direct: deps.config.gitops.directCommit ? { commitPath: deps.commitPath, log: deps.log } : null,
      }),
    ),
  },
  actions: {
    // Hosted repository: reading (and cloning over /git/r/...) for every member, writes for members.
    'projects.*.files.read': 'viewer',
    'projects.*.files.write': 'member',
    'projects.*.git.read': 'viewer',
    'projects.*.delivery.preview': 'viewer',
    'projects.*.delivery.generate': 'member',
    'projects.*.compare': 'viewer',
    'projects.*.images.preview': 'viewer',
    'projects.*.images.update': 'member',
    // The external remote: its URL is visible to members, changing it (and its token) is configuration.
    'projects.*.remote.read': 'viewer',
    'projects.*.remote.update': 'admin',
  },
} satisfies DomainModule;
