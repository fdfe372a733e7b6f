import type { StatementSink } from '../db/statement-batch';
import type { FileChanges } from '../git/commit-writer';
import { gitText, readTree } from '../git/git-plumbing';
import { serviceDir, type Target } from '../delivery-layout/target-paths';
import { applicationContents, applicationsTouched } from './application-digest';
import { filesAfter, type CommittedFiles } from './committed-files';
import { recordCommitEvents } from './commit-events';
import { recordRevision } from './deployed-state-repository';

/** What deployed a commit: the release, promotion, bulk update, webhook request, generate or file write, and who. */
export interface CommitSource {
  kind: 'release' | 'promotion' | 'bulk-update' | 'webhook' | 'generate' | 'files';
  id: string | null;
  actor: string;
}

/**
 * The deployed-state side of a commit, in the commit's transaction (the one commit path calls it with what it
 * committed): the commit's place in the project's order, and for each Application whose source directory the commit
 * changed, its new digest and version as desired state, with the commit in its history. Idempotent: a retried commit
 * records nothing twice. A desired change ends the previous verification (the new content is not verified yet). Each
 * commit event names the commit's audit entries (issue 47's deployments history), written with the event. The
 * statements go to the pass's batch (`sink`), in commit order.
 */
export async function recordCommittedState(
  sink: StatementSink,
  commit: {
    repo: string;
    sha: string;
    organizationId: string;
    projectId: string;
    tenants: { id: string; slug: string }[];
    source: CommitSource;
    /** The audit entries of the commit's write. */
    auditIds: string[];
    /** The paths the commit wrote or deleted, when the caller knows them (a superset of what it changed). */
    touched?: string[];
    /** The changes the commit was built from, with the parent's files they were computed from (FileChanges.base). */
    changes?: FileChanges;
    /** Puts the commit's objects in the repository before they are read from it (a pass's pending objects). */
    flush: () => Promise<void>;
  },
): Promise<void> {
  const revision = { organizationId: commit.organizationId, projectId: commit.projectId, sha: commit.sha };
  const tenantIds = new Map(commit.tenants.map((t) => [t.slug, t.id]));
  const applications = (paths: string[]) => applicationsTouched(paths).filter((t) => tenantIds.has(t.tenant));
  // A write that touched no Application's directory changed none: no git process to ask which paths changed.
  if (commit.touched && applications(commit.touched).length === 0) return recordRevision(sink, revision);
  const known = commit.changes && filesAfter(commit.changes, applications);
  if (!known) await commit.flush();
  const committed = known ?? (await readCommitted(commit.repo, commit.sha, applications));
  const { kind: sourceKind, id: sourceId, actor } = commit.source;
  recordCommitEvents(
    sink,
    revision,
    { sourceKind, sourceId, actor, auditIds: commit.auditIds, at: new Date() },
    applicationContents(committed.files, committed.targets, committed.known).map(({ target, digest, version }) => ({
      tenantId: tenantIds.get(target.tenant) as string,
      tenantSlug: target.tenant,
      environment: target.environment,
      service: target.service,
      digest,
      version,
    })),
  );
}

/** The Applications a commit changed and their directories' files, asked of git (the commit's diff and tree). */
async function readCommitted(
  repo: string,
  sha: string,
  applications: (paths: string[]) => Target[],
): Promise<CommittedFiles> {
  const changed = await gitText(repo, ['diff-tree', '-r', '-z', '--no-commit-id', '--name-only', '--root', sha]);
  const targets = applications(changed.split('\0').filter(Boolean));
  if (targets.length === 0) return { targets, files: new Map() };
  const dirs = new Set(targets.map((t) => `${serviceDir(t)}/`));
  const files = await readTree(repo, sha, [...dirs], (file) => dirs.has(file.slice(0, file.lastIndexOf('/') + 1)));
  return { targets, files };
}
