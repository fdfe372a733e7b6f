import type { Db, Tx } from '../db/knex';
import type { GovernanceGate } from '../governance/governance-verdict';
import { recordCommittedState } from '../deployments/commit-state';
import { COMMIT_FAILURE, CommitRefused } from './commit-failure';
import { gateOpened, writeRecord } from './write-record';
import type {
  CommitGate,
  CommitOperation,
  CommitOperationKind,
  CommitRequest,
  OperationKinds,
  OperationScope,
  PassOnce,
} from './commit-operation';
import {
  buildCommit,
  findCommitByKey,
  moveBranch,
  readBranch,
  restoreBranch,
  type FileChanges,
} from '../git/commit-writer';
import { looseObjects, type ObjectStore } from '../git/object-writer';
import { startLooseObjectThread } from '../git/loose-object-thread';
import { PendingObjects } from '../git/pending-objects';
import { passStartLocked, type PassRecordState } from './commit-record-repository';
import { PassRecords } from './pass-records';
import { loadProject } from './delivery-model';
import { packsCrowded, wantsMaintenance } from './repository-maintenance';
import { repositoryLockKey } from './repository-lock';
import type { RepositoryStore } from '../git/repository-store';
import type { WorkloadSources } from './workload-sources';

export type { CommitActor, CommitGate, CommitOperation, CommitRequest } from './commit-operation';
export type { ImageUpdate } from './image-operation';
export { CommitRefused } from './commit-failure';
export { renderDigest } from '../delivery-layout/render-digest';

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

/** A write waiting for its repository's next pass. */
interface Pending {
  req: CommitRequest;
  gate?: CommitGate;
  resolve: (outcome: CommitOutcome) => void;
  reject: (err: unknown) => void;
}

/** The database names a project whose repository the configured volume lacks (docs/operations.md). */
export class RepositoryMissing extends Error {
  override readonly name = 'RepositoryMissing';
  constructor(readonly path: string) {
    super(
      `the project's Git repository is missing from the volume (${path}): is GIT_REPOSITORIES_DIR the shared volume?`,
    );
  }
}

export interface CommitPathDeps {
  db: Db;
  repositories: RepositoryStore;
  publicUrl: string;
  sources: WorkloadSources;
  governance: GovernanceGate;
  /** The operations the commit path runs (src/runtime/commit-operations.ts). */
  operations: OperationKinds;
  /** The writes waiting for each repository (by its identity key) while a pass of this process writes it. */
  waiting: Map<string, Pending[]>;
}

/** The commit path's dependencies from the built services (the git activities, tests and benches). */
export function commitPathDepsOf(
  services: Pick<CommitPathDeps, 'db' | 'repositories' | 'sources' | 'governance'> & {
    config: { publicUrl: string };
  },
  operations: OperationKinds,
): CommitPathDeps {
  const { db, repositories, sources, governance } = services;
  const publicUrl = services.config.publicUrl;
  // The commit path's loose objects go through this thread: started now, not in the first commit's time.
  startLooseObjectThread();
  return { db, repositories, publicUrl, sources, governance, operations, waiting: new Map() };
}

/** The most writes one pass takes: a bound on how long the pass holds its transaction and the repository lock. */
const PASS_LIMIT = 32;

/**
 * The one commit path: every write to a project's repository runs here: in the `git` task queue's activity, as a
 * workflow's local activity, or in the API process that verified an inbound image update (one per process).
 *
 * - Serialized per repository across processes: a PostgreSQL advisory lock keyed on the repository's identity
 *   (organization and project ids, never its path: src/gitops/repository-lock.ts) is held (in the transaction) from reading the branch to moving it, and the branch moves with compare-and-swap.
 * - Written in passes: the writes that arrive for a repository while a pass of this process writes it wait, and the
 *   next pass writes them back to back under one lock and one transaction, one commit each (each with its own
 *   trailers, audit entries and record). A write refused before it wrote anything leaves the others be; one that
 *   fails after fails the pass, whose writes then run again each alone. The commits' objects go into one pack, and
 *   their audit entries and records are inserted together, at the pass's end (issue 46). The branch moves once, to the
 *   pass's last commit.
 * - A commit and its audit entries are one unit: the commit object is built first (no ref moves), then the audit
 *   entries and the commit record (`git_commits`) are written, and the branch moves last, right before the
 *   transaction commits. If the transaction then fails, the branch is put back (and each write of a failed pass of
 *   several runs again alone); if the process dies in between, the next writer finds the branch past the recorded head
 *   and puts it back (see `settledParent`).
 * - Idempotent: a retry finds its own commit by its idempotency key in `git_commits` (unique per repository) and
 *   returns it; the database side (an image update's overrides, the audit entries) is applied again only when missing.
 * - Never an empty commit: a change that leaves the tree as it is commits nothing and returns sha null.
 * - The audit entries of the write carry the commit SHA (`gitCommitSha`) and the workflow id.
 * - It knows operations, not domains: what a write renders and records is its operation kind's (`deps.operations`).
 * - A write with a `gate` (in the process that took its request: a generate validating meanwhile) is prepared up to
 *   its rows, which are sent, then waits for the gate before its pass ends: opened, its details join its audit
 *   entries; closed, the write is withdrawn (CommitRefused `withdrawn`) and the pass rolls back.
 */
export function runCommit(deps: CommitPathDeps, req: CommitRequest, gate?: CommitGate): Promise<CommitOutcome> {
  const repo = deps.repositories.pathOf(req.organizationId, req.projectId);
  const key = repositoryLockKey('git', req.organizationId, req.projectId);
  return new Promise((resolve, reject) => {
    const waiting = deps.waiting.get(key);
    if (waiting) return void waiting.push({ req, gate, resolve, reject });
    deps.waiting.set(key, [{ req, gate, resolve, reject }]);
    void drain(deps, key, repo);
  });
}

/** Passes over the repository until no write waits for it. */
async function drain(deps: CommitPathDeps, key: string, repo: string): Promise<void> {
  for (let waiting = deps.waiting.get(key); waiting?.length; waiting = deps.waiting.get(key)) {
    const batch = waiting.splice(0, PASS_LIMIT);
    // A pass of several that failed as a whole (its transaction did not commit): each write again on its own.
    if ((await pass(deps, repo, batch)) && batch.length > 1) for (const one of batch) await pass(deps, repo, [one]);
  }
  deps.waiting.delete(key);
}

/**
 * One pass: its writes, each settled once the transaction committed. A pass that fails as a whole returns true; a
 * pass of one write then rejects it.
 */
async function pass(deps: CommitPathDeps, repo: string, batch: Pending[]): Promise<boolean> {
  const moved: { from?: string | null; to?: string } = {};
  let settled: (() => void)[];
  try {
    settled = await deps.db.transaction((trx) => writeAll(deps, trx, repo, batch, moved));
  } catch (err) {
    // The branch moved but the transaction did not commit: the commits have no audit entry, so they leave the branch.
    if (moved.to) await restoreBranch(repo, moved.to, moved.from ?? null);
    if (batch.length === 1) batch[0]?.reject(err);
    return true;
  }
  for (const settle of settled) settle();
  return false;
}

async function writeAll(
  deps: CommitPathDeps,
  trx: Tx,
  repo: string,
  batch: Pending[],
  moved: { from?: string | null; to?: string },
): Promise<(() => void)[]> {
  const { organizationId, projectId } = batch[0]!.req;
  // The lock is keyed by identity, never by `repo`: another process may reach the same folder by another path (issue
  // 43, H1). The recorded head and the writes' records are read once the lock is held, in the same round trip.
  const writes = batch.map(({ req }) => ({ workflowId: req.workflowId, commitKey: req.idempotencyKey }));
  const lockKey = repositoryLockKey('git', organizationId, projectId);
  const { head, state: known } = await passStartLocked(trx, lockKey, projectId, writes);
  // The project's row was created with its repository: a volume without it is not the deployment's shared volume (or
  // lost it), and a fresh repository there would fork the history. Stop; a retry succeeds once the volume is right.
  if (!(await deps.repositories.exists(organizationId, projectId))) throw new RepositoryMissing(repo);
  // The branch cannot move before this transaction ends: every writer takes the lock above first.
  const start = await settledParent(repo, head);
  let parent = start;
  // A pass of several keeps its objects for one pack (issue 46: one file pair where each commit wrote four files);
  // a write alone writes loose objects (measured no slower, bench:commit-profile), so that a repository written one
  // commit at a time does not gather a pack a commit.
  const pending = batch.length === 1 ? null : new PendingObjects(repo);
  const store = pending ?? looseObjects(repo);
  const records = new PassRecords();
  const read = new Map<string, Promise<unknown>>();
  const once: PassOnce = <T>(key: string, value: () => Promise<T>) => {
    if (!read.has(key)) read.set(key, value());
    return read.get(key) as Promise<T>;
  };
  const settled: (() => void)[] = [];
  // The same write twice in one pass (a retry beside its original): the second finds the first's outcome, as it would
  // find its record in a later pass (the pass's records are written at its end, after both).
  const byKey = new Map<string, CommitOutcome>();
  for (const { req, gate, resolve, reject } of batch) {
    const earlier = byKey.get(req.idempotencyKey);
    if (earlier) {
      settled.push(() => resolve({ ...earlier, created: false }));
      continue;
    }
    // What this write loads sees the earlier writes' rows; a failure of theirs fails the pass (each runs again alone).
    await records.batch.send(trx);
    const progress = { wrote: false };
    try {
      const share = { store, records, known, head, once, progress, gate };
      const outcome = await commitOne(deps, trx, repo, req, parent, share);
      if (outcome.created) parent = outcome.sha;
      byKey.set(req.idempotencyKey, outcome);
      settled.push(() => resolve(outcome));
    } catch (err) {
      // A write refused before it wrote anything leaves the others be (no savepoint: a round trip each way less); one
      // that wrote fails the pass, and `pass` rejects it once the transaction rolled back (or drain runs each again).
      if (batch.length === 1 || progress.wrote) throw err;
      settled.push(() => reject(err));
    }
  }
  await records.write(trx);
  if (parent !== start && parent) {
    // Last, right before the transaction commits: a failure after this puts the branch back (pass).
    await store.flush();
    Object.assign(moved, { from: start, to: parent });
    await moveBranch(repo, parent, start);
    // Too many packs of passes (busy concurrent writers): the pass's last write asks for the repository's maintenance,
    // which merges them.
    const last = [...byKey.values()].reverse().find((outcome) => outcome.created);
    if (last && pending?.packed && packsCrowded(repo)) last.maintenance = true;
  }
  return settled;
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

function kindOf(deps: CommitPathDeps, op: CommitOperation): CommitOperationKind<CommitOperation> {
  const kind = deps.operations.get(op.type);
  if (!kind) throw new CommitRefused(COMMIT_FAILURE.badTarget, `unknown commit operation ${String(op.type)}`);
  return kind;
}

/**
 * What a write shares with its pass: where its objects and records go, what the database knew of the pass's writes and
 * its head when the pass began, and whether this write wrote to the database yet.
 */
interface PassShare {
  store: ObjectStore;
  records: PassRecords;
  known: PassRecordState;
  head: string | null;
  once: PassOnce;
  progress: { wrote: boolean };
  /** The write's gate, if the process that took its request holds one. */
  gate?: CommitGate;
}

/** One write of a pass, on `parent` (the branch, or the pass's previous commit). */
async function commitOne(
  deps: CommitPathDeps,
  trx: Tx,
  repo: string,
  req: CommitRequest,
  parent: string | null,
  { store, records: pass, known, head, once, progress, gate }: PassShare,
): Promise<CommitOutcome> {
  const kind = kindOf(deps, req.operation);
  // An operation that reads the repository reads the pass's earlier commits there.
  if (!kind.readsNothing) await store.flush();
  const ctx = { publicUrl: deps.publicUrl, sources: deps.sources, governance: deps.governance };
  const scope: OperationScope<CommitOperation> = { trx, req, ctx, once, batch: pass.batch };
  const loaded = await (kind.load ? kind.load(scope) : loadProject(trx, req.organizationId, req.projectId, ctx));
  if (!loaded) throw new CommitRefused(COMMIT_FAILURE.projectGone, 'project not found');
  const records = known.writes.get(req.idempotencyKey) ?? { keySha: null, entryIds: [] };
  const remote = known.remote;
  // A repository older than the records (none yet) is searched for the key's commit, by a git process.
  const unrecorded = records.keySha === null && head === null && !pass.recordsCommits ? parent : null;
  if (unrecorded) await store.flush();
  const existing = records.keySha ?? (unrecorded ? await findCommitByKey(repo, req.idempotencyKey, unrecorded) : null);
  const recorded = records.entryIds;
  if (existing && recorded.length > 0) return { sha: existing, created: false, auditIds: recorded, remote };
  if (loaded.project.archived && !existing) throw new CommitRefused(COMMIT_FAILURE.archived, 'the project is archived');
  if (!existing) await kind.refuse?.(scope, loaded);

  progress.wrote = kind.apply !== undefined;
  const mutated = kind.apply ? await kind.apply(scope, loaded) : loaded;
  let sha = existing;
  let touched: string[] | undefined;
  let changes: FileChanges | undefined;
  if (!existing) {
    changes = await kind.changes(scope, mutated, repo, parent);
    touched = [...changes.writes.keys(), ...changes.deletes];
    sha = await buildCommit(
      repo,
      parent,
      changes,
      {
        author: { name: req.actor.actor, email: req.actor.email ?? `${req.actor.actor}@delivery-platform.invalid` },
        message: req.message,
        trailers: trailersOf(req),
      },
      store,
    );
  }
  progress.wrote = true;
  const entries = recorded.length > 0 ? [] : writeRecord(pass, scope, kind, mutated, sha);
  const auditIds = recorded.length > 0 ? recorded : entries.map((entry) => entry.id);
  // What runs where (issue 27): the Applications this commit changed, in the commit's transaction, each event naming
  // the commit's audit entries (issue 47).
  if (sha) {
    const source = kind.source(req);
    // A new commit's Applications are recorded from the files its changes were computed from (no git process).
    const flush = () => store.flush();
    const state = { repo, sha, ...req, tenants: mutated.tenants, source, auditIds, touched, changes, flush };
    await recordCommittedState(pass.batch, state);
  }
  await kind.settle?.(scope, mutated, sha);
  if (gate) {
    // The statements so far go to PostgreSQL while the gate is still being decided (the other core works meanwhile).
    const details = await gateOpened(gate, pass.batch.send(trx));
    for (const entry of entries) Object.assign(entry.details, details);
  }
  const created = sha !== null && sha !== existing;
  const outcome: CommitOutcome = { sha, created, auditIds, remote };
  if (!created || !sha) return outcome;
  const row = {
    organization_id: req.organizationId,
    project_id: req.projectId,
    idempotency_key: req.idempotencyKey,
    sha,
    parent_sha: parent,
  };
  // The record's sequence number comes at the pass's end, before the outcome is handed out.
  pass.commit({ row, recorded: (seq) => wantsMaintenance(touched?.length ?? 0, seq) && (outcome.maintenance = true) });
  return outcome;
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
