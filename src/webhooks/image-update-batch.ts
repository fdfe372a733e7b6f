import type { CommitRequest, ImageUpdate } from '../gitops/commit-path';
import { SUBSYSTEM } from '../iam/subsystems';

/** One verified image-update request, as its project's workflow receives it (a signal) and batches it. */
export interface QueuedImageUpdate {
  /** The webhook request row (its status URL). */
  webhookId: string;
  /** The HTTP request id (audit entries of the commit carry it). */
  requestId: string;
  /** The signing time (epoch ms): the newest signed tag of a target wins, whatever API process took it. */
  signedAt: number;
  updates: ImageUpdate[];
}

export interface TargetRef {
  workload: string;
  tenant: string;
  environment: string;
  /** `chart`: the target's chart version (kept apart from its image tag). */
  field?: 'chart';
}

/** A target's newest committed tag: a later batch moves it only to a request signed at the same time or later. */
export interface CommittedMark extends TargetRef {
  tag: string;
  signedAt: number;
}

/** What one batch commits, which marks move, and per request the targets a newer signed request took. */
export interface BatchPlan {
  updates: ImageUpdate[];
  marks: CommittedMark[];
  superseded: Record<string, TargetRef[]>;
}

export const targetKey = (t: TargetRef) =>
  `${t.workload}\u0000${t.tenant}\u0000${t.environment}\u0000${t.field ?? 'tag'}`;

/**
 * Group commit of one project's queued requests (in arrival order): per target the newest signed tag wins (the later
 * arrival on a tie), and never one signed before what an earlier batch committed there (`committed`, by targetKey).
 * The losers are named as superseded, never silently dropped.
 */
export function planBatch(entries: QueuedImageUpdate[], committed: Map<string, number>): BatchPlan {
  const winners = new Map<string, { entry: QueuedImageUpdate; target: TargetRef; tag: string }>();
  for (const entry of entries) {
    for (const u of entry.updates) {
      for (const pair of u.pairs) {
        const target = { workload: u.workload, ...pair, ...(u.field ? { field: u.field } : {}) };
        const key = targetKey(target);
        if ((committed.get(key) ?? -Infinity) > entry.signedAt) continue;
        const held = winners.get(key);
        if (!held || entry.signedAt >= held.entry.signedAt) winners.set(key, { entry, target, tag: u.tag });
      }
    }
  }
  const updates = new Map<string, ImageUpdate>();
  for (const w of winners.values()) {
    const { workload, field } = w.target;
    const id = `${w.entry.webhookId}/${workload}/${field ?? 'tag'}/${w.tag}`;
    const update = updates.get(id) ?? {
      workload,
      tag: w.tag,
      pairs: [],
      requestId: w.entry.requestId,
      ...(field ? { field } : {}),
    };
    update.pairs.push({ tenant: w.target.tenant, environment: w.target.environment });
    updates.set(id, update);
  }
  const superseded: Record<string, TargetRef[]> = {};
  for (const entry of entries) {
    superseded[entry.webhookId] = entry.updates.flatMap((u) =>
      u.pairs
        .map((pair) => ({ workload: u.workload, ...pair, ...(u.field ? { field: u.field } : {}) }))
        .filter((t) => winners.get(targetKey(t))?.entry !== entry),
    );
  }
  const marks = [...winners.values()].map((w) => ({ ...w.target, tag: w.tag, signedAt: w.entry.signedAt }));
  return { updates: [...updates.values()], marks, superseded };
}

/**
 * The one commit of a planned batch (null when every target was superseded), keyed by its first request: a retried
 * commit activity finds the commit it made.
 */
export function batchCommit(
  target: { organizationId: string; projectId: string },
  live: QueuedImageUpdate[],
  plan: BatchPlan,
): Omit<CommitRequest, 'workflowId'> | null {
  const [first, ...more] = plan.updates;
  if (!first || !live[0]) return null;
  const requests = new Set(plan.updates.map((u) => u.requestId));
  return {
    ...target,
    idempotencyKey: `webhook-${live[0].webhookId}`,
    message: `Image update via webhook: ${plan.updates.length} workload update(s) from ${requests.size} request(s)`,
    actor: {
      userId: null,
      actorType: 'system',
      actor: SUBSYSTEM.imageWebhook,
      email: null,
      requestId: first.requestId ?? null,
    },
    operation: { type: 'image', source: 'webhook', ...first, more },
  };
}
