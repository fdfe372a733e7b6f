import { InvalidInput, Unprocessable } from '../errors';
import type { LoadedProject } from '../gitops/delivery-model';
import { renderAll, type DeliveryModel } from '../gitops/manifests';
import { renderDigest } from '../delivery-layout/render-digest';
import { movedTargets } from '../gitops/target-operation';
import { orderByDependencies, type DependencyNode } from '../projects/workload-order';
import { tenantSlugsOf } from '../projects/tenant-ref';
import { effectiveSpec } from '../projects/workload-spec';
import { withReleaseChanges } from '../releases/release-changes';
import type { Move, PromotionGroup } from './promotion-workflow-contract';

export interface PromotionRequest {
  sourceEnvironment: string;
  targetEnvironment: string;
  /** Tenants by slug or id (projects/tenant-ref.ts); absent: every tenant of the project. */
  tenants?: string[];
  /** Workload names; absent: every workload. */
  services?: string[];
}

function unknownNames(asked: string[] | undefined, known: string[], what: string): void {
  const missing = (asked ?? []).filter((name) => !known.includes(name));
  if (missing.length > 0) throw new InvalidInput(`${what} not in this project: ${missing.join(', ')}`);
}

/**
 * What a promotion moves: per tenant, the image tag each chosen service runs in the source environment where the
 * target runs another. Replicas, variables and resources stay the target's own (they are environment settings).
 */
export function planMoves(loaded: LoadedProject, request: PromotionRequest): Move[] {
  const { sourceEnvironment: source, targetEnvironment: target } = request;
  if (source === target) throw new InvalidInput('sourceEnvironment and targetEnvironment must differ');
  const environments = loaded.environments.map((e) => e.environment);
  unknownNames([source, target], environments, 'environments');
  const named = request.tenants && tenantSlugsOf(loaded.tenants, request.tenants);
  unknownNames(
    named,
    loaded.tenants.map((t) => t.slug),
    'tenants',
  );
  unknownNames(
    request.services,
    loaded.workloads.map((w) => w.name),
    'services',
  );
  const tenants = loaded.tenants.filter((t) => !named || named.includes(t.slug));
  const workloads = loaded.model.workloads.filter((w) => !request.services || request.services.includes(w.name));
  const moves: Move[] = [];
  for (const tenant of tenants) {
    const differing = workloads.flatMap((w) => {
      const proposed = effectiveSpec(w.spec, w.overrides, tenant.slug, source).image.tag;
      const current = effectiveSpec(w.spec, w.overrides, tenant.slug, target).image.tag;
      return proposed === current ? [] : [{ workload: w.name, proposed, current }];
    });
    if (differing.length === 0) continue;
    moves.push({
      tenant: tenant.slug,
      tenantId: tenant.id,
      changes: differing.map((d) => ({ workload: d.workload, tag: d.proposed })),
      previous: differing.map((d) => ({ workload: d.workload, tag: d.current })),
    });
  }
  if (moves.length === 0) {
    throw new Unprocessable(`nothing to promote: ${target} already runs the versions of ${source}`);
  }
  return moves;
}

/** One workload set to one tag: what a bulk image update, and an image rollout (docs/rollouts.md), changes. */
export interface ImageChange {
  workload: string;
  tag: string;
}

/**
 * What an image change moves in `environment` for the given tenants (slugs): each tenant whose tag there differs, with
 * the tag it runs now as `previous` (what a rollback sets back), as planMoves computes it for a promotion.
 */
export function imageMoves(
  loaded: LoadedProject,
  environment: string,
  tenants: readonly string[],
  change: ImageChange,
): Move[] {
  const workload = loaded.model.workloads.find((w) => w.name === change.workload);
  if (!workload) return [];
  return loaded.tenants
    .filter((t) => tenants.includes(t.slug))
    .flatMap((tenant) => {
      const current = effectiveSpec(workload.spec, workload.overrides, tenant.slug, environment).image.tag;
      if (current === change.tag) return [];
      return [
        {
          tenant: tenant.slug,
          tenantId: tenant.id,
          changes: [{ workload: change.workload, tag: change.tag }],
          previous: [{ workload: change.workload, tag: current }],
        },
      ];
    });
}

/** The delivery model with every move applied to the target environment (what the promotion commits). */
export function withMoves(model: DeliveryModel, environment: string, moves: Move[]): DeliveryModel {
  return moves.reduce((m, move) => withReleaseChanges(m, move.tenant, environment, move.changes), model);
}

/**
 * The moves in service order (docs/promotions.md, "Service order"): a group per `orderByDependencies` step of the
 * workloads they change, each with the tenants' changes of its workloads and the digest of the files they render
 * (`model`: the moves applied). Empty when one commit does it all (no dependency links the changed workloads).
 */
export function promotionGroups(
  model: DeliveryModel,
  nodes: readonly DependencyNode[],
  environment: string,
  moves: Move[],
): PromotionGroup[] {
  const order = orderByDependencies(nodes, [...new Set(moves.flatMap((m) => m.changes.map((c) => c.workload)))]);
  if (order.length < 2 || moves.some((m) => m.changes.length === 0)) return [];
  return order.map((workloads) => {
    const groupMoves = moves
      .map((m) => ({ ...m, changes: m.changes.filter((c) => workloads.includes(c.workload)) }))
      .filter((m) => m.changes.length > 0);
    return {
      workloads,
      moves: groupMoves,
      digest: renderDigest(renderAll(model, movedTargets(environment, groupMoves))),
    };
  });
}
