import { prepareEntries } from '../audit/audit-repository';
import type { AuditEntry } from '../audit/types';
import { addDomainEvent } from '../events/domain-event-repository';
import { withdrawnWrite } from './commit-failure';
import type { AuditBase, CommitGate, CommitOperation, CommitOperationKind, OperationScope } from './commit-operation';
import type { LoadedProject } from './delivery-model';
import type { PassRecords } from './pass-records';

/* What a write of the commit path (commit-path.ts) records in its transaction, and what its gate adds to it. */

/**
 * The details of an opened gate, once the statements `sent` meanwhile have run; a closed gate withdraws the write (it
 * fails the pass, which rolls back).
 */
export async function gateOpened(gate: CommitGate, sent: Promise<void>): Promise<Record<string, unknown>> {
  const [statements, verdict] = await Promise.allSettled([sent, gate]);
  if (statements.status === 'rejected') throw statements.reason;
  if (verdict.status === 'rejected') throw verdict.reason;
  if (verdict.value === null) throw withdrawnWrite();
  return verdict.value;
}

/**
 * The operation's audit entries (kept for the pass's end: a gate's details join them until then) and events, in the
 * commit's transaction; each entry names its write (`commitKey`) and carries the request's `auditDetails`.
 */
export function writeRecord(
  pass: PassRecords,
  scope: OperationScope<CommitOperation>,
  kind: CommitOperationKind<CommitOperation>,
  loaded: LoadedProject,
  sha: string | null,
): AuditEntry[] {
  const { req } = scope;
  const base: AuditBase = {
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
  const record = kind.record(scope, loaded, base);
  // A retried write finds its own entries by `commitKey`.
  const entries = prepareEntries(
    record.entries.map((entry) => ({
      ...entry,
      details: { ...entry.details, ...req.auditDetails, commitKey: req.idempotencyKey },
    })),
  );
  pass.audit(entries);
  const ids = entries.map((entry) => entry.id);
  for (const event of record.events?.(ids) ?? []) {
    addDomainEvent(pass.batch, { organizationId: req.organizationId, projectId: req.projectId, ...event });
  }
  return entries;
}
