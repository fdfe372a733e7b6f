import { DOMAIN_EVENT } from '../events/domain-event-repository';
import { frozenMessage } from '../governance/governance-verdict';
import { withTenantOverride, type WorkloadOverrides } from '../projects/workload-spec';
import { COMMIT_FAILURE, CommitRefused } from './commit-failure';
import {
  managedChanges,
  type AuditBase,
  type CommitOperationKind,
  type OperationRecord,
  type OperationScope,
} from './commit-operation';
import type { FileChanges } from '../git/commit-writer';
import type { LoadedProject } from './delivery-model';
import { readTree } from '../git/git-plumbing';
import { renderAll } from './manifests';
import { serviceDir, type Target } from '../delivery-layout/target-paths';
import { loadWorkloads, patchLockedOverrides, patchOverrides, withPatchedWorkloads } from './override-patch';

/**
 * One workload's new tag for some tenant-and-environment pairs; `requestId` names the webhook request it answers.
 * `field: 'chart'`: `tag` is the chart version of a chart-based workload (a watched chart, issue 49), written as the
 * targets' `chartVersion`.
 */
export interface ImageUpdate {
  workload: string;
  pairs: { tenant: string; environment: string }[];
  tag: string;
  requestId?: string;
  field?: 'chart';
}

/** The override an update writes to each of its targets. */
export const overrideOf = (u: Pick<ImageUpdate, 'tag' | 'field'>) =>
  u.field === 'chart' ? { chartVersion: u.tag } : { tag: u.tag };

/**
 * Image tags: one workload (bulk update), or several in one commit (`more`: inbound webhook requests grouped while a
 * commit was running); `source` names the notifiable event; `details` is added to each image.update audit entry
 * (the break-glass session a bulk update ran under).
 */
export type ImageOperation = {
  type: 'image';
  more?: ImageUpdate[];
  source?: 'bulk' | 'webhook';
  details?: Record<string, unknown>;
} & ImageUpdate;

declare module './commit-operation' {
  interface CommitOperations {
    image: ImageOperation;
  }
}

/** The workloads an image operation changes, the first one and the rest. */
function imageUpdatesOf(op: ImageOperation): ImageUpdate[] {
  const { workload, pairs, tag, requestId, field } = op;
  return [{ workload, pairs, tag, requestId, ...(field ? { field } : {}) }, ...(op.more ?? [])];
}

/**
 * A bulk image update is checked against freezes again at commit time, in the commit's transaction (a freeze that
 * started after the request refuses it, unless the actor's break-glass covers it). Webhook updates are checked when
 * they are accepted.
 */
async function refuseFrozen({ trx, req, ctx }: OperationScope<ImageOperation>): Promise<void> {
  if (req.operation.source === 'webhook') return;
  const byEnvironment = new Map<string, Set<string>>();
  for (const update of imageUpdatesOf(req.operation)) {
    for (const pair of update.pairs) {
      byEnvironment.set(pair.environment, (byEnvironment.get(pair.environment) ?? new Set()).add(pair.tenant));
    }
  }
  for (const [environment, tenants] of byEnvironment) {
    const target = { organizationId: req.organizationId, projectId: req.projectId, environment, tenants: [...tenants] };
    const verdict = await ctx.governance.check(trx, target, 'images.update', req.actor.userId);
    if (verdict.blocked) {
      throw new CommitRefused(COMMIT_FAILURE.frozen, `${environment} is ${frozenMessage(verdict.freezes)}`);
    }
  }
}

/** The tenant-and-environment tags in the workloads' overrides: one read and write per workload, later wins. */
export async function applyImageUpdates<Op>(
  scope: OperationScope<Op>,
  loaded: LoadedProject,
  updates: ImageUpdate[],
  /** `loaded` holds the workloads read locked in this transaction (loadProjectWith): patched without a second read. */
  lockedLoad = false,
): Promise<LoadedProject> {
  const patched = [];
  for (const workload of new Set(updates.map((u) => u.workload))) {
    const patch = (overrides: WorkloadOverrides) =>
      updates
        .filter((u) => u.workload === workload)
        .flatMap((u) => u.pairs.map((pair) => ({ ...pair, patch: overrideOf(u) })))
        .reduce((o, t) => withTenantOverride(o, t.tenant, t.environment, t.patch), overrides);
    const locked = lockedLoad ? loaded.workloads.find((w) => w.name === workload) : undefined;
    patched.push(
      locked
        ? patchLockedOverrides(scope.batch, locked, patch)
        : await patchOverrides(scope.trx, scope.req.projectId, workload, patch),
    );
  }
  return withPatchedWorkloads(scope, loaded, patched, workloadsOf(updates));
}

/** The workloads some image updates change: all their commit loads and renders (issue 46: flat in project size). */
export function workloadsOf(updates: ImageUpdate[]): string[] {
  return [...new Set(updates.map((u) => u.workload))].sort();
}

/** The tree changes of these updates against `parent`: only the pairs' directories are rendered and read. */
export async function imageChanges(
  updates: ImageUpdate[],
  loaded: LoadedProject,
  repo: string,
  parent: string | null,
): Promise<FileChanges> {
  const wanted = new Set(updates.flatMap((u) => u.pairs.map((p) => `${u.workload}/${p.tenant}/${p.environment}`)));
  const rendered = renderAll(loaded.model, (t: Target) => wanted.has(`${t.service}/${t.tenant}/${t.environment}`));
  // One listing and one batch read for all the pairs' directories, whatever their number.
  const dirs = new Set(updates.flatMap((u) => u.pairs.map((p) => `${serviceDir({ ...p, service: u.workload })}/`)));
  const current = await readTree(repo, parent, [...dirs], (file) => dirs.has(file.slice(0, file.lastIndexOf('/') + 1)));
  return managedChanges(current, rendered, [...dirs]);
}

/**
 * One image.update entry per workload, tenant and environment, and the notifiable event (none when nothing was
 * updated); `op` says whether the updates came from the webhook (and carries a bulk update's details).
 */
export function imageRecord(
  updates: ImageUpdate[],
  op: Pick<ImageOperation, 'source' | 'details'> & Partial<ImageUpdate>,
  actor: string,
  loaded: LoadedProject,
  base: AuditBase,
): OperationRecord {
  const webhook = op.source === 'webhook';
  const project = loaded.project.slug;
  const tenantIds = new Map(loaded.tenants.map((t) => [t.slug, t.id]));
  const entries = updates.flatMap((update) =>
    update.pairs.map((pair) => ({
      ...base,
      requestId: update.requestId ?? base.requestId,
      action: update.field === 'chart' ? 'chart.update' : 'image.update',
      category: webhook ? ('webhook' as const) : ('delivery' as const),
      tenantId: tenantIds.get(pair.tenant) ?? null,
      resourceType: 'workload',
      resourceId: update.workload,
      details: {
        project,
        workload: update.workload,
        tenant: pair.tenant,
        environment: pair.environment,
        ...(update.field === 'chart' ? { chartVersion: update.tag } : { tag: update.tag }),
        ...(webhook ? { subsystem: actor } : {}),
        ...op.details,
      },
    })),
  );
  if (updates.length === 0) return { entries };
  const gitCommitSha = base.gitCommitSha;
  // The notifiable event, in the same transaction as the audit entries: both exist or neither does.
  const events = (auditIds: string[]) => [
    webhook
      ? { type: DOMAIN_EVENT.imagesWebhookUpdated, payload: { project, updates, gitCommitSha, auditIds } }
      : {
          type: DOMAIN_EVENT.imagesBulkUpdated,
          payload: { project, workload: op.workload, tag: op.tag, pairs: op.pairs, gitCommitSha, auditIds },
        },
  ];
  return { entries, events };
}

export const imageOperation: CommitOperationKind<ImageOperation> = {
  type: 'image',
  load: (scope) => loadWorkloads(scope, workloadsOf(imageUpdatesOf(scope.req.operation))),
  refuse: refuseFrozen,
  apply: (scope, loaded) => applyImageUpdates(scope, loaded, imageUpdatesOf(scope.req.operation)),
  changes: ({ req }, loaded, repo, parent) => imageChanges(imageUpdatesOf(req.operation), loaded, repo, parent),
  record: ({ req }, loaded, base) =>
    imageRecord(imageUpdatesOf(req.operation), req.operation, req.actor.actor, loaded, base),
  source(req) {
    const { operation: op, actor } = req;
    return op.source === 'webhook'
      ? { kind: 'webhook', id: op.requestId ?? null, actor: actor.actor }
      : { kind: 'bulk-update', id: req.workflowId, actor: actor.actor };
  },
};
