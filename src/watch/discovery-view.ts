import type { Queryable } from '../db/knex';
import { commitsFate } from '../deployments/deployed-state-repository';
import type { DiscoveryOutcome, RolloutRef } from './watch-discovery';
import type { WatchDiscovery, WatchKind, WatchTarget } from './watch-repository';

/**
 * Where a discovered version stands in one target (tenant and environment) of a workload that subscription updates:
 * - `verified`: the controller reported the commit Synced and Healthy (`verifiedAt`);
 * - `syncing`: committed, the target's desired commit, not verified yet;
 * - `replaced`: committed, but a later commit changed the target before it was verified;
 * - `held`: a freeze holds it; applied when the freeze ends unless a newer version supersedes it;
 * - or the reason it was not updated (`pinned`, `frozen`, `superseded`) with its detail.
 */
export interface TargetFate {
  tenant: string;
  environment: string;
  state: string;
  detail?: string;
  commit?: string | null;
  verifiedAt?: string;
}

export interface OutcomeView {
  subscriptionId: string;
  workload: string;
  /** What the subscription updates: the image tag or the chart version. */
  kind: WatchKind;
  chosen: string | null;
  result: string;
  commit: string | null;
  error?: string;
  targets: TargetFate[];
  /** Environments of the project the subscription does not update: there the discovery is only recorded. */
  recordedOnly: string[];
  /** The image rollouts it started (environments with a rollout plan): their waves update those targets. */
  rollouts?: RolloutRef[];
}

export interface DiscoveryView {
  id: string;
  source: WatchDiscovery['source'];
  registry: string | null;
  repository: string;
  tag: string;
  digest: string;
  foundAt: string;
  status: WatchDiscovery['status'];
  outcomes: OutcomeView[];
}

export interface ViewContext {
  projectId: string;
  subscriptions: WatchTarget[];
  workloads: Map<string, string>;
  registries: Map<string, string>;
  environments: string[];
  tenants: { id: string; slug: string }[];
}

const pairKey = (p: { tenant: string; environment: string }) => `${p.tenant}/${p.environment}`;

/**
 * The discoveries as the project sees them: each outcome of one of its subscriptions, every target it concerned with
 * its fate, read from the deployed state (desired commits now, verifications of the commits made).
 */
export async function discoveryViews(
  db: Queryable,
  discoveries: WatchDiscovery[],
  ctx: ViewContext,
): Promise<DiscoveryView[]> {
  const subscriptions = new Map(ctx.subscriptions.map((s) => [s.id, s]));
  const mine = (d: WatchDiscovery) =>
    (d.outcomes as DiscoveryOutcome[]).filter((o) => subscriptions.has(o.subscriptionId));
  const outcomes = discoveries.flatMap(mine);
  const services = [...new Set(outcomes.map((o) => o.workload))];
  const commits = [...new Set(outcomes.flatMap((o) => (o.updated ?? []).map((u) => u.commit ?? o.commit)))].filter(
    (c): c is string => typeof c === 'string',
  );
  const fate =
    commits.length > 0 ? await commitsFate(db, ctx.projectId, services, commits) : { desired: [], verified: [] };
  const slugOf = new Map(ctx.tenants.map((t) => [t.id, t.slug]));
  const at = (r: { tenant_id: string; environment: string; service: string }) =>
    `${slugOf.get(r.tenant_id) ?? ''}/${r.environment}/${r.service}`;
  const desired = new Map(fate.desired.map((r) => [at(r), r.desired_revision]));
  const verified = new Map(fate.verified.map((r) => [`${at(r)}@${r.revision}`, r.at]));

  const targetsOf = (o: DiscoveryOutcome): TargetFate[] => {
    const held = new Set((o.held ?? []).map(pairKey));
    const updated = (o.updated ?? []).map((u): TargetFate => {
      const where = `${pairKey(u)}/${o.workload}`;
      // Outcomes recorded before each target kept its commit name only the outcome's.
      const commit = u.commit ?? o.commit ?? null;
      const when = commit ? verified.get(`${where}@${commit}`) : undefined;
      if (when) {
        return {
          tenant: u.tenant,
          environment: u.environment,
          state: 'verified',
          commit,
          verifiedAt: when.toISOString(),
        };
      }
      const state = commit !== null && desired.get(where) === commit ? 'syncing' : 'replaced';
      return { tenant: u.tenant, environment: u.environment, state, commit };
    });
    const skipped = (o.skipped ?? []).map((s): TargetFate => ({
      tenant: s.tenant,
      environment: s.environment,
      state: held.has(pairKey(s)) ? 'held' : s.reason,
      ...(s.detail !== undefined ? { detail: s.detail } : {}),
    }));
    return [...updated, ...skipped].sort((a, b) => pairKey(a).localeCompare(pairKey(b)));
  };

  return discoveries.map((d) => ({
    id: d.id,
    source: d.source,
    registry: d.registryId ? (ctx.registries.get(d.registryId) ?? null) : null,
    repository: d.repository,
    tag: d.tag,
    digest: d.digest,
    foundAt: d.foundAt.toISOString(),
    status: d.status,
    outcomes: mine(d).map((o) => {
      const sub = subscriptions.get(o.subscriptionId)!;
      return {
        subscriptionId: o.subscriptionId,
        workload: ctx.workloads.get(sub.workloadId) ?? o.workload,
        kind: sub.kind,
        chosen: o.chosen,
        result: o.result,
        commit: o.commit ?? null,
        ...(o.error !== undefined ? { error: o.error } : {}),
        targets: targetsOf(o),
        recordedOnly: ctx.environments.filter((e) => !sub.environments.includes(e)),
        ...(o.rollouts ? { rollouts: o.rollouts } : {}),
      };
    }),
  }));
}
