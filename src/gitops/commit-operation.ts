import type { AuditEntryInput } from '../audit/types';
import type { Tx } from '../db/knex';
import type { StatementBatch } from '../db/statement-batch';
import type { CommitSource } from '../deployments/commit-state';
import type { DomainEventInput } from '../events/domain-event-repository';
import type { GovernanceGate } from '../governance/governance-verdict';
import { RenderedFiles } from './rendered-files';
import type { FileChanges } from '../git/commit-writer';
import type { DeliveryContext, LoadedProject } from './delivery-model';
import { isManaged } from '../delivery-layout/target-paths';

/**
 * What the one commit path writes, by operation: each committing domain adds its operation's shape here from its own
 * folder (declaration merging, `declare module '.../gitops/commit-operation'`), and its `CommitOperationKind` to the
 * list the commit path is given (src/runtime/commit-operations.ts). The commit path itself knows no operation.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by each domain's declaration merging
export interface CommitOperations {}

export type CommitOperation = CommitOperations[keyof CommitOperations];

export interface CommitActor {
  userId: string | null;
  actorType: 'user' | 'service_account' | 'system';
  actor: string;
  email: string | null;
  requestId: string | null;
}

export interface CommitRequest<Op = CommitOperation> {
  organizationId: string;
  projectId: string;
  /** Names the write: a retry with the same key finds the first commit (trailer `Idempotency-Key`). */
  idempotencyKey: string;
  /**
   * The workflow running the write (`direct-<request id>` for an API process's own commit of an image update); its
   * audit entries carry it, the commit names it (trailer `Audit-Workflow-Id`).
   */
  workflowId: string;
  message: string;
  actor: CommitActor;
  releaseId?: string;
  operation: Op;
  /**
   * Added to the details of the write's audit entries: what the process that took the request decided while the write
   * was being prepared (its CommitGate's details), when it hands the request to a workflow.
   */
  auditDetails?: Record<string, unknown>;
}

/**
 * What a write waits for before it lands, in the process that took its request: the caller decides while the commit
 * path prepares the write (a generate validates while its commit is built and its rows are sent, issue 46). It gives
 * the details to add to the write's audit entries, or null: the write is withdrawn, and nothing of it stays.
 */
export type CommitGate = Promise<Record<string, unknown> | null>;

/** What an operation's hooks may use beside the transaction: loading the project, and the freeze gate. */
export interface OperationContext extends DeliveryContext {
  governance: GovernanceGate;
}

/**
 * What the writes of one pass read once for all of them (`key` names it): only what none of them changes, since a
 * later write gets the value the first one read.
 */
export type PassOnce = <T>(key: string, read: () => Promise<T>) => Promise<T>;

/** One write in progress, as an operation's hooks see it: the commit's transaction, the request and its pass. */
export interface OperationScope<Op> {
  trx: Tx;
  req: CommitRequest<Op>;
  ctx: OperationContext;
  once: PassOnce;
  /**
   * The pass's statement batch: rows no hook of this write reads again (events, records, outcomes) go there, and are
   * written with the pass's records in one round trip (sent before the pass's next write loads, and by a hook that
   * reads what it added).
   */
  batch: StatementBatch;
}

/** The audit entries of a write and the domain events that name them (the ids are known once the entries exist). */
export interface OperationRecord {
  entries: AuditEntryInput[];
  events?: (auditIds: string[]) => Pick<DomainEventInput, 'type' | 'payload'>[];
}

/**
 * One kind of write to a repository: how it loads what it renders, what it refuses, what it changes in the database
 * and in the tree, and which audit entries and events record it. Every hook runs inside the commit path's unit (the
 * advisory lock and the transaction), which writes what `record` returns in the same transaction as the commit.
 */
export interface CommitOperationKind<Op extends { type: string }> {
  readonly type: Op['type'];
  /** The project as the operation needs it; by default the whole delivery model. */
  load?(scope: OperationScope<Op>): Promise<LoadedProject | null>;
  /** Refusals checked before a new commit is built (not on a retry that found its commit). */
  refuse?(scope: OperationScope<Op>, loaded: LoadedProject): Promise<void> | void;
  /** The database side, applied again on a retry (idempotent): returns the project as it then is. */
  apply?(scope: OperationScope<Op>, loaded: LoadedProject): Promise<LoadedProject>;
  /**
   * The changes are computed from the request alone, never from the repository: a pass of several writes may then keep
   * its commits' objects in memory until its end (src/git/pending-objects.ts). Without it, the pass's earlier commits
   * are written to the repository before each of the operation's writes.
   */
  readonly readsNothing?: true;
  /** The tree changes against `parent`'s tree. */
  changes(scope: OperationScope<Op>, loaded: LoadedProject, repo: string, parent: string | null): Promise<FileChanges>;
  /** The audit entries (from `base`: actor, workflow, commit SHA, project) and events of the write. */
  record(scope: OperationScope<Op>, loaded: LoadedProject, base: AuditBase): OperationRecord;
  /**
   * Last in the commit's unit, with the new commit's SHA (null when the tree did not change): what the operation's
   * domain records of the outcome (in `scope.batch`), committed or rolled back with the commit and its audit entries.
   */
  settle?(scope: OperationScope<Op>, loaded: LoadedProject, sha: string | null): void | Promise<void>;
  /** What deployed the commit (the deployed-state history names it). */
  source(req: CommitRequest<Op>): CommitSource;
}

export type AuditBase = Omit<AuditEntryInput, 'action' | 'category'> & { gitCommitSha: string | null };

/** The operation kinds the commit path runs, by type. A module contributes its kind to the list it is built from. */
export type OperationKinds = ReadonlyMap<string, CommitOperationKind<CommitOperation>>;

export function operationKinds(kinds: CommitOperationKind<CommitOperation>[]): OperationKinds {
  const byType = new Map<string, CommitOperationKind<CommitOperation>>();
  for (const kind of kinds) {
    if (byType.has(kind.type)) throw new Error(`commit operation ${kind.type} registered twice`);
    byType.set(kind.type, kind);
  }
  return byType;
}

/**
 * Changes to the managed part of the tree that make it equal to `rendered`; `folders` names what `current` holds
 * (FileChanges.base).
 */
export function managedChanges(
  current: Map<string, string>,
  rendered: Map<string, string>,
  folders?: string[],
): FileChanges {
  const writes = new Map([...rendered].filter(([file, text]) => current.get(file) !== text));
  const deletes = [...current.keys()].filter((file) => isManaged(file) && !rendered.has(file));
  return {
    writes,
    deletes,
    ...(folders ? { base: { folders, files: current } } : {}),
    ...(rendered instanceof RenderedFiles
      ? { objects: rendered.objects, directoryDigest: (dir, files) => rendered.directoryDigest(dir, files) }
      : {}),
  };
}
