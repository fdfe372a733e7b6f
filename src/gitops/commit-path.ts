import { commitEntryIds } from '../audit/audit-repository';
import { createHash } from 'node:crypto';
import type { AuditService } from '../audit/audit-service';
import type { AuditEntryInput } from '../audit/types';
import type { Db, Tx } from '../db/knex';
import { DOMAIN_EVENT, recordDomainEvent } from '../events/domain-event-repository';
import { COMMIT_FAILURE } from './commit-failure';
import { frozenMessage, type GovernanceGate } from '../governance/governance-verdict';
import { findWorkload, updateWorkload } from '../projects/workload-repository';
import {
  overridePatchOf,
  withTenantOverride,
  withTenantTag,
  type WorkloadChange,
  type WorkloadOverrides,
} from '../projects/workload-spec';
import { buildCommit, findCommitByKey, moveBranch, readBranch, restoreBranch, type FileChanges } from './commit-writer';
import { commitRecordState, recordCommit } from './commit-record-repository';
import { wantsMaintenance } from './repository-maintenance';
import { gitUrlOf, loadProject, type DeliveryContext, type LoadedProject } from './delivery-model';
import { findProjectById } from '../projects/project-repository';
import { readTree } from './git-plumbing';
import { isManaged, renderAll, serviceDir, type Target } from './manifests';
import type { WorkloadSources } from './workload-sources';
import { findRemote } from './remote-repository';
import type { RepositoryStore } from './repository-store';
import { refuseGoneTarget } from './target-gone';
import { commitSourceOf, recordCommittedState } from '../deployments/commit-state';

/** One workload's new tag for some tenant-and-environment pairs; `requestId` names the webhook request it answers. */
export interface ImageUpdate {
  workload: string;
  pairs: { tenant: string; environment: string }[];
  tag: string;
  requestId?: string;
}

/** What a write does to the repository (and, for an image update, to the workload's overrides). */
export type CommitOperation =
  | { type: 'files'; writes: { path: string; content: string }[]; deletes: string[] }
  /** Regenerate every managed file; `digest` is what the caller validated (see renderDigest). */
  | { type: 'generate'; digest: string; details?: Record<string, unknown> }
  /**
   * Image tags: one workload (bulk update), or several in one commit (`more`: inbound webhook requests grouped while a
   * commit was running); `source` names the notifiable event; `details` is added to each image.update audit entry
   * (the break-glass session a bulk update ran under).
   */
  | ({
      type: 'image';
      more?: ImageUpdate[];
      source?: 'bulk' | 'webhook';
      details?: Record<string, unknown>;
    } & ImageUpdate)
  /**
   * A release: its changes set in the tenant-and-environment overrides, then that target's files regenerated;
   * `digest` is what the release validated (renderDigest of the target's files).
   */
  | {
      type: 'release';
      tenant: string;
      environment: string;
      changes: WorkloadChange[];
      digest: string;
      details?: Record<string, unknown>;
    }
  /**
   * A promotion: each tenant's changes set in its overrides of the target environment, then those tenants' files
   * regenerated in one commit; `digest` is what the promotion rendered (renderDigest of those files).
   */
  | {
      type: 'promotion';
      promotionId: string;
      sourceEnvironment: string;
      environment: string;
      moves: { tenant: string; changes: WorkloadChange[] }[];
      digest: string;
      details?: Record<string, unknown>;
    };

export interface CommitActor {
  userId: string | null;
  actorType: 'user' | 'service_account' | 'system';
  actor: string;
  email: string | null;
  requestId: string | null;
}

export interface CommitRequest {
  organizationId: string;
  projectId: string;
  /** Names the write: a retry with the same key finds the first commit (trailer `Idempotency-Key`). */
  idempotencyKey: string;
  /** The workflow running the write; its audit entries carry it, the commit names it (trailer `Audit-Workflow-Id`). */
  workflowId: string;
  message: string;
  actor: CommitActor;
  releaseId?: string;
  operation: CommitOperation;
}

export interface CommitOutcome {
  /** The commit that holds the change: new, found again on a retry, or null when nothing changed. */
  sha: string | null;
  created: boolean;
  auditIds: string[];
  /** The project has an external remote: the commit workflow then pushes to it. */
  remote: boolean;
  /** The repository is due for maintenance (a large commit, or its periodic turn): the workflow starts it. */
  maintenance?: boolean;
}

export class CommitRefused extends Error {
  constructor(
    readonly type: (typeof COMMIT_FAILURE)[keyof typeof COMMIT_FAILURE],
    message: string,
  ) {
    super(message);
  }
}

/** The database names a project whose repository the configured volume lacks (docs/operations.md). */
export class RepositoryMissing extends Error {
  override readonly name = 'RepositoryMissing';
  constructor(readonly path: string) {
    super(`the project's Git repository is missing from the volume (${path}): is DATA_DIR the shared volume?`);
  }
}

/** The workloads an image operation changes, the first one and the rest. */
function imageUpdatesOf(op: ImageUpdate & { more?: ImageUpdate[] }): ImageUpdate[] {
  const { workload, pairs, tag, requestId } = op;
  return [{ workload, pairs, tag, requestId }, ...(op.more ?? [])];
}

/** Digest of a rendered tree: the generate request carries the digest of what was validated. */
export function renderDigest(files: Map<string, string>): string {
  const hash = createHash('sha256');
  for (const file of [...files.keys()].sort()) hash.update(`${file}\0${files.get(file) ?? ''}\0`);
  return hash.digest('hex');
}

export interface CommitPathDeps {
  db: Db;
  audit: AuditService;
  repositories: RepositoryStore;
  publicUrl: string;
  sources: WorkloadSources;
  governance: GovernanceGate;
}

/** The commit path's dependencies from the built services (the git activities, tests and benches). */
export function commitPathDepsOf(
  services: Omit<CommitPathDeps, 'publicUrl'> & { config: { publicUrl: string } },
): CommitPathDeps {
  const { db, audit, repositories, sources, governance } = services;
  return { db, audit, repositories, publicUrl: services.config.publicUrl, sources, governance };
}

/**
 * A bulk image update is checked against freezes again at commit time, in the commit's transaction (a freeze that
 * started after the request refuses it, unless the actor's break-glass covers it). Releases and promotions check
 * right before their commit in their workflows; webhook updates when they are accepted.
 */
async function refuseFrozenImages(gate: GovernanceGate, trx: Tx, req: CommitRequest): Promise<void> {
  const op = req.operation;
  if (op.type !== 'image' || op.source === 'webhook') return;
  const byEnvironment = new Map<string, Set<string>>();
  for (const update of imageUpdatesOf(op)) {
    for (const pair of update.pairs) {
      byEnvironment.set(pair.environment, (byEnvironment.get(pair.environment) ?? new Set()).add(pair.tenant));
    }
  }
  for (const [environment, tenants] of byEnvironment) {
    const target = { organizationId: req.organizationId, projectId: req.projectId, environment, tenants: [...tenants] };
    const verdict = await gate.check(trx, target, 'images.update', req.actor.userId);
    if (verdict.blocked) {
      throw new CommitRefused(COMMIT_FAILURE.frozen, `${environment} is ${frozenMessage(verdict.freezes)}`);
    }
  }
}

/** Changes to the managed part of the tree that make it equal to `rendered`. */
export function managedChanges(current: Map<string, string>, rendered: Map<string, string>): FileChanges {
  const writes = new Map([...rendered].filter(([file, text]) => current.get(file) !== text));
  const deletes = [...current.keys()].filter((file) => isManaged(file) && !rendered.has(file));
  return { writes, deletes };
}

/**
 * The one commit path: every write to a project's repository runs here, in the `git` task queue's activity.
 *
 * - Serialized per repository across processes: a PostgreSQL advisory lock keyed on the repository is held (in the
 *   transaction) from reading the branch to moving it, and the branch moves with compare-and-swap.
 * - A commit and its audit entries are one unit: the commit object is built first (no ref moves), then the audit
 *   entries and the commit record (`git_commits`) are written, and the branch moves last, right before the
 *   transaction commits. If the transaction then fails, the branch is put back; if the process dies in between, the
 *   next writer finds the branch past the recorded head and puts it back (see `settledParent`).
 * - Idempotent: a retry finds its own commit by its idempotency key in `git_commits` (unique per repository) and
 *   returns it; the database side (an image update's overrides, the audit entries) is applied again only when missing.
 * - Never an empty commit: a change that leaves the tree as it is commits nothing and returns sha null.
 * - The audit entries of the write carry the commit SHA (`gitCommitSha`) and the workflow id.
 */
export async function runCommit(deps: CommitPathDeps, req: CommitRequest): Promise<CommitOutcome> {
  const repo = deps.repositories.pathOf(req.organizationId, req.projectId);
  const moved: { from?: string | null; to?: string } = {};
  try {
    return await deps.db.transaction((trx) => commitInTransaction(deps, trx, repo, req, moved));
  } catch (err) {
    // The branch moved but the transaction did not commit: the commit has no audit entry, so it leaves the branch.
    if (moved.to) await restoreBranch(repo, moved.to, moved.from ?? null);
    throw err;
  }
}

/**
 * The branch's commit to build on. When PostgreSQL has recorded commits for the repository, the branch must be at the
 * newest one: a tip past it is a commit whose transaction never committed (its process died between moving the branch
 * and the commit), unaudited, so it is put back. A repository with no records yet (older than `git_commits`) is
 * trusted as it is.
 */
async function settledParent(repo: string, head: string | null): Promise<string | null> {
  const tip = await readBranch(repo);
  if (head === null || tip === head) return tip;
  if (!(await restoreBranch(repo, tip, head))) throw new Error('the branch moved while the repository was locked');
  return head;
}

/** A files write renders nothing: the project row is all it needs (its delivery model stays empty). */
async function loadFor(trx: Tx, req: CommitRequest, ctx: DeliveryContext): Promise<LoadedProject | null> {
  if (req.operation.type !== 'files') return loadProject(trx, req.organizationId, req.projectId, ctx);
  const project = await findProjectById(trx, req.organizationId, req.projectId);
  if (!project) return null;
  const model = {
    project: project.slug,
    repoUrl: gitUrlOf(ctx.publicUrl, project),
    tenants: [],
    environments: [],
    workloads: [],
  };
  return { project, tenants: [], environments: [], workloads: [], model, destinationConflicts: [] };
}

async function commitInTransaction(
  deps: CommitPathDeps,
  trx: Tx,
  repo: string,
  req: CommitRequest,
  moved: { from?: string | null; to?: string },
): Promise<CommitOutcome> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`git:${repo}`]);
  const loaded = await loadFor(trx, req, deps);
  if (!loaded) throw new CommitRefused(COMMIT_FAILURE.projectGone, 'project not found');
  // The project's row was created with its repository: a volume without it is not the deployment's shared volume (or
  // lost it), and a fresh repository there would fork the history. Stop; a retry succeeds once the volume is right.
  if (!(await deps.repositories.exists(req.organizationId, req.projectId))) throw new RepositoryMissing(repo);
  const records = await commitRecordState(trx, req.projectId, req.idempotencyKey);
  // The branch cannot move before this transaction ends: every writer takes the lock above first.
  const parent = await settledParent(repo, records.head);
  const existing =
    records.keySha ??
    (records.head === null && parent ? await findCommitByKey(repo, req.idempotencyKey, parent) : null);
  const recorded = await commitEntryIds(trx, req.workflowId, req.idempotencyKey);
  const remote = (await findRemote(trx, req.projectId)) !== null;
  if (existing && recorded.length > 0) return { sha: existing, created: false, auditIds: recorded, remote };
  if (loaded.project.archived && !existing) throw new CommitRefused(COMMIT_FAILURE.archived, 'the project is archived');
  if (!existing) await refuseFrozenImages(deps.governance, trx, req);
  if (!existing) refuseGoneTarget(loaded, req.operation);

  const mutated = await applyDatabaseSide(trx, loaded, req, deps);
  let sha = existing;
  let changed = 0;
  if (!existing) {
    const changes = await changesFor(repo, parent, mutated, req.operation);
    changed = changes.writes.size + changes.deletes.length;
    sha = await buildCommit(repo, parent, changes, {
      author: { name: req.actor.actor, email: req.actor.email ?? `${req.actor.actor}@delivery-platform.invalid` },
      message: req.message,
      trailers: trailersOf(req),
    });
  }
  // What runs where (issue 27): the Applications this commit changed, in the commit's transaction.
  if (sha)
    await recordCommittedState(trx, { repo, sha, ...req, tenants: mutated.tenants, source: commitSourceOf(req) });
  const auditIds = recorded.length > 0 ? recorded : await writeAudit(deps.audit, trx, mutated, req, sha);
  const created = sha !== null && sha !== existing;
  if (created && sha) {
    const { organizationId, projectId, idempotencyKey } = req;
    const seq = await recordCommit(trx, { organizationId, projectId, idempotencyKey, sha, parentSha: parent });
    // Last, right before the transaction commits: what runs after this and fails puts the branch back (runCommit).
    Object.assign(moved, { from: parent, to: sha });
    await moveBranch(repo, sha, parent);
    if (wantsMaintenance(changed, seq)) return { sha, created, auditIds, remote, maintenance: true };
  }
  return { sha, created, auditIds, remote };
}

function trailersOf(req: CommitRequest): [string, string][] {
  const trailers: [string, string][] = [
    ['Idempotency-Key', req.idempotencyKey],
    ['Audit-Workflow-Id', req.workflowId],
    ['Actor', req.actor.actor],
  ];
  if (req.releaseId) trailers.push(['Release-Id', req.releaseId]);
  if (req.actor.requestId) trailers.push(['Request-Id', req.actor.requestId]);
  return trailers;
}

async function patchOverrides(
  trx: Tx,
  projectId: string,
  name: string,
  patch: (overrides: WorkloadOverrides) => WorkloadOverrides,
): Promise<void> {
  const workload = await findWorkload(trx, projectId, name, true);
  if (!workload) throw new CommitRefused(COMMIT_FAILURE.badTarget, `workload ${name} not found`);
  await updateWorkload(trx, workload.id, { overrides: patch(workload.overrides) });
}

/**
 * An image update sets the tenant-and-environment tag in the workload's overrides, a release its changes
 * (idempotent: the same values again).
 */
async function applyDatabaseSide(
  trx: Tx,
  loaded: LoadedProject,
  req: CommitRequest,
  ctx: DeliveryContext,
): Promise<LoadedProject> {
  const op = req.operation;
  if (op.type === 'image') {
    // One read and write of each workload's overrides, whatever the number of its updates (in order: later wins).
    const updates = imageUpdatesOf(op);
    for (const workload of new Set(updates.map((u) => u.workload))) {
      await patchOverrides(trx, loaded.project.id, workload, (overrides) =>
        updates
          .filter((u) => u.workload === workload)
          .flatMap((u) => u.pairs.map((pair) => ({ ...pair, tag: u.tag })))
          .reduce((o, t) => withTenantTag(o, t.tenant, t.environment, t.tag), overrides),
      );
    }
  } else if (op.type === 'release' || op.type === 'promotion') {
    const moves = op.type === 'release' ? [{ tenant: op.tenant, changes: op.changes }] : op.moves;
    for (const move of moves) {
      for (const change of move.changes) {
        await patchOverrides(trx, loaded.project.id, change.workload, (overrides) =>
          withTenantOverride(overrides, move.tenant, op.environment, overridePatchOf(change)),
        );
      }
    }
  } else return loaded;
  const reloaded = await loadProject(trx, req.organizationId, req.projectId, ctx);
  if (!reloaded) throw new CommitRefused(COMMIT_FAILURE.projectGone, 'project not found');
  return reloaded;
}

async function changesFor(
  repo: string,
  parent: string | null,
  loaded: LoadedProject,
  op: CommitOperation,
): Promise<FileChanges> {
  if (op.type === 'files') {
    return { writes: new Map(op.writes.map((w) => [w.path, w.content])), deletes: op.deletes };
  }
  if (op.type === 'image') {
    const updates = imageUpdatesOf(op);
    const wanted = new Set(updates.flatMap((u) => u.pairs.map((p) => `${u.workload}/${p.tenant}/${p.environment}`)));
    const rendered = renderAll(loaded.model, (t: Target) => wanted.has(`${t.service}/${t.tenant}/${t.environment}`));
    // One listing and one batch read for all the pairs' directories, whatever their number.
    const dirs = new Set(updates.flatMap((u) => u.pairs.map((p) => `${serviceDir({ ...p, service: u.workload })}/`)));
    const current = await readTree(repo, parent, 'tenants/', (file) =>
      dirs.has(file.slice(0, file.lastIndexOf('/') + 1)),
    );
    return managedChanges(current, rendered);
  }
  if (op.type === 'release' || op.type === 'promotion') {
    const tenants = new Set(op.type === 'release' ? [op.tenant] : op.moves.map((m) => m.tenant));
    const rendered = renderAll(loaded.model, (t) => tenants.has(t.tenant) && t.environment === op.environment);
    if (renderDigest(rendered) !== op.digest) {
      throw new CommitRefused(COMMIT_FAILURE.deliveryChanged, 'the target changed between validation and commit');
    }
    const dirs = [...tenants].flatMap((tenant) => [
      `tenants/${tenant}/${op.environment}/`,
      `applications/${tenant}/${op.environment}/`,
    ]);
    const current = await readTree(repo, parent, '', (file) => dirs.some((dir) => file.startsWith(dir)));
    return managedChanges(current, rendered);
  }
  const rendered = renderAll(loaded.model);
  if (renderDigest(rendered) !== op.digest) {
    throw new CommitRefused(
      COMMIT_FAILURE.deliveryChanged,
      'the project changed between validation and commit; generate again',
    );
  }
  const current = new Map([...(await readTree(repo, parent))].filter(([file]) => isManaged(file)));
  return managedChanges(current, rendered);
}

async function writeAudit(
  audit: AuditService,
  trx: Tx,
  loaded: LoadedProject,
  req: CommitRequest,
  sha: string | null,
): Promise<string[]> {
  const base: Omit<AuditEntryInput, 'action' | 'category'> = {
    organizationId: req.organizationId,
    projectId: req.projectId,
    userId: req.actor.userId,
    actorType: req.actor.actorType,
    actor: req.actor.actor,
    requestId: req.actor.requestId,
    workflowId: req.workflowId,
    gitCommitSha: sha,
    resourceType: 'project',
    resourceId: req.projectId,
  };
  const op = req.operation;
  const project = loaded.project.slug;
  const entries: AuditEntryInput[] = [];
  if (op.type === 'files') {
    entries.push({
      ...base,
      action: 'git.files.commit',
      category: 'git',
      details: { project, message: req.message, writes: op.writes.map((w) => w.path), deletes: op.deletes },
    });
  } else if (op.type === 'generate') {
    entries.push({ ...base, action: 'delivery.generate', category: 'delivery', details: { project, ...op.details } });
  } else if (op.type === 'release') {
    const tenantId = loaded.tenants.find((t) => t.slug === op.tenant)?.id ?? null;
    const details = {
      project,
      tenant: op.tenant,
      environment: op.environment,
      changes: op.changes,
      commitKey: req.idempotencyKey,
      ...op.details,
    };
    const resource = { tenantId, resourceType: 'release', resourceId: req.releaseId ?? null };
    const entry = await audit.append(trx, {
      ...base,
      ...resource,
      action: 'release.deploy',
      category: 'deployment',
      details,
    });
    await recordDomainEvent(trx, {
      organizationId: req.organizationId,
      projectId: req.projectId,
      type: DOMAIN_EVENT.releaseDeployed,
      payload: { ...details, releaseId: req.releaseId, tenantId, gitCommitSha: sha, auditId: entry.id },
    });
    return [entry.id];
  } else if (op.type === 'promotion') {
    const details = {
      project,
      sourceEnvironment: op.sourceEnvironment,
      environment: op.environment,
      tenants: op.moves.map((m) => m.tenant),
      moves: op.moves,
      commitKey: req.idempotencyKey,
      ...op.details,
    };
    const entry = await audit.append(trx, {
      ...base,
      resourceType: 'promotion',
      resourceId: op.promotionId,
      action: 'promotion.execute',
      category: 'deployment',
      details,
    });
    await recordDomainEvent(trx, {
      organizationId: req.organizationId,
      projectId: req.projectId,
      type: DOMAIN_EVENT.promotionExecuted,
      payload: { ...details, promotionId: op.promotionId, gitCommitSha: sha, auditId: entry.id },
    });
    return [entry.id];
  } else {
    const tenantIds = new Map(loaded.tenants.map((t) => [t.slug, t.id]));
    for (const update of imageUpdatesOf(op)) {
      for (const pair of update.pairs) {
        entries.push({
          ...base,
          requestId: update.requestId ?? base.requestId,
          action: 'image.update',
          category: op.source === 'webhook' ? 'webhook' : 'delivery',
          tenantId: tenantIds.get(pair.tenant) ?? null,
          resourceType: 'workload',
          resourceId: update.workload,
          details: {
            project,
            workload: update.workload,
            tenant: pair.tenant,
            environment: pair.environment,
            tag: update.tag,
            ...(op.source === 'webhook' ? { subsystem: req.actor.actor } : {}),
            ...op.details,
          },
        });
      }
    }
  }
  // Each entry names the write it records (`commitKey`): a retried write finds its own entries by it.
  const written = await audit.appendMany(
    trx,
    entries.map((entry) => ({ ...entry, details: { ...entry.details, commitKey: req.idempotencyKey } })),
  );
  const ids = written.map((entry) => entry.id);
  if (op.type === 'image' && op.source === 'webhook') {
    await recordDomainEvent(trx, {
      organizationId: req.organizationId,
      projectId: req.projectId,
      type: DOMAIN_EVENT.imagesWebhookUpdated,
      payload: { project, updates: imageUpdatesOf(op), gitCommitSha: sha, auditIds: ids },
    });
  } else if (op.type === 'image') {
    // The notifiable event, in the same transaction as the audit entries: both exist or neither does.
    await recordDomainEvent(trx, {
      organizationId: req.organizationId,
      projectId: req.projectId,
      type: DOMAIN_EVENT.imagesBulkUpdated,
      payload: { project, workload: op.workload, tag: op.tag, pairs: op.pairs, gitCommitSha: sha, auditIds: ids },
    });
  }
  return ids;
}
