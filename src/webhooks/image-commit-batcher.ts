import { randomUUID } from 'node:crypto';
import type { CommitClient } from '../gitops/commit-client';
import type { ImageUpdate } from '../gitops/commit-path';
import type { Project } from '../projects/project-repository';
import { SUBSYSTEM } from '../iam/subsystems';
import { systemCaller } from '../iam/system-caller';

/** What one request's updates became: the shared commit, and its targets a newer request of the same group took. */
export interface BatchOutcome {
  sha: string | null;
  superseded: { workload: string; tenant: string; environment: string }[];
}

interface Pending {
  seq: number;
  requestId: string;
  signedAt: number;
  updates: ImageUpdate[];
  resolve(outcome: BatchOutcome): void;
  reject(err: unknown): void;
}

export type ImageCommitBatcher = ReturnType<typeof createImageCommitBatcher>;

/**
 * Group commit: one repository takes one commit at a time, so while a project's commit runs, the image updates of
 * the requests that arrive meanwhile wait and then go into ONE next commit. Each request keeps its own audit entries
 * (its request id on them) and gets the shared SHA. Within a group the newest signed tag of a workload's target wins
 * (then the later arrival); the loser is told it was superseded, never silently dropped.
 */
export function createImageCommitBatcher(commit: CommitClient) {
  const queues = new Map<string, { pending: Pending[]; running: boolean }>();
  /** Per project, the signing time of what was last committed to each target: a later group never goes back. */
  const applied = new Map<string, Map<string, number>>();
  let seq = 0;

  function merge(projectId: string, group: Pending[]) {
    const winners = new Map<string, { p: Pending; workload: string; tag: string }>();
    const done = applied.get(projectId) ?? new Map<string, number>();
    applied.set(projectId, done);
    const newer = (a: Pending, b: Pending) => a.signedAt > b.signedAt || (a.signedAt === b.signedAt && a.seq > b.seq);
    for (const p of group) {
      for (const u of p.updates) {
        for (const pair of u.pairs) {
          const key = `${u.workload}/${pair.tenant}/${pair.environment}`;
          const held = winners.get(key);
          if ((done.get(key) ?? -Infinity) > p.signedAt) continue;
          if (!held || newer(p, held.p)) winners.set(key, { p, workload: u.workload, tag: u.tag });
        }
      }
    }
    for (const [key, w] of winners) done.set(key, w.p.signedAt);
    const updates = new Map<string, ImageUpdate>();
    for (const [key, w] of winners) {
      const [, tenant = '', environment = ''] = key.split('/');
      const id = `${w.p.requestId}/${w.workload}/${w.tag}`;
      const update = updates.get(id) ?? { workload: w.workload, tag: w.tag, pairs: [], requestId: w.p.requestId };
      update.pairs.push({ tenant, environment });
      updates.set(id, update);
    }
    return { winners, updates: [...updates.values()] };
  }

  /** The targets of a request that another (newer) request of the group, or an earlier group, took. */
  function supersededOf(p: Pending, winners: Map<string, { p: Pending }>) {
    return p.updates.flatMap((u) =>
      u.pairs
        .filter((pair) => winners.get(`${u.workload}/${pair.tenant}/${pair.environment}`)?.p !== p)
        .map((pair) => ({ workload: u.workload, ...pair })),
    );
  }

  async function runGroup(project: Project, group: Pending[]) {
    const { winners, updates } = merge(project.id, group);
    const [first, ...more] = updates;
    if (!first) {
      for (const p of group) p.resolve({ sha: null, superseded: supersededOf(p, winners) });
      return;
    }
    const requests = new Set(group.map((p) => p.requestId));
    const outcome = await commit(
      systemCaller(SUBSYSTEM.imageWebhook, project.organizationId, first.requestId ?? ''),
      project,
      {
        message: `Image update via webhook: ${updates.length} workload update(s) from ${requests.size} request(s)`,
        idempotencyKey: `webhook-${randomUUID()}`,
        operation: { type: 'image', source: 'webhook', ...first, more },
      },
    );
    for (const p of group) p.resolve({ sha: outcome.sha, superseded: supersededOf(p, winners) });
  }

  async function drain(project: Project) {
    const queue = queues.get(project.id)!;
    queue.running = true;
    try {
      while (queue.pending.length > 0) {
        const group = queue.pending.splice(0, queue.pending.length);
        try {
          await runGroup(project, group);
        } catch (err) {
          for (const p of group) p.reject(err);
        }
      }
    } finally {
      queue.running = false;
      queues.delete(project.id);
    }
  }

  return {
    /** Queues one request's updates for the project's next commit; resolves once that commit is made. */
    submit(project: Project, requestId: string, signedAt: number, updates: ImageUpdate[]): Promise<BatchOutcome> {
      return new Promise((resolve, reject) => {
        let queue = queues.get(project.id);
        if (!queue) {
          queue = { pending: [], running: false };
          queues.set(project.id, queue);
        }
        queue.pending.push({ seq: ++seq, requestId, signedAt, updates, resolve, reject });
        if (!queue.running) void drain(project);
      });
    },
  };
}
