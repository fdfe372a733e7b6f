import { frozenMessage, type GateVerdict } from '../governance/governance-verdict';
import { pairKey, pinsOf, type PinRow } from '../pins/pin-repository';
import { planCovers } from '../rollouts/rollout-plan';
import type { StoredPlan } from '../rollouts/rollout-plan-repository';
import type { ImageUpdate } from '../gitops/image-operation';

type Pair = { tenant: string; environment: string };

export interface Skipped {
  workload?: string;
  tenant: string;
  environment: string;
  /** `pinned`, `frozen` (a freeze window or stop the line holds it), `superseded` (a newer signed tag won). */
  reason: string;
  detail?: string;
}

/** Where an image update's targets go: skipped and named, committed in auto-update environments, or released. */
export interface Routed {
  skipped: Skipped[];
  /** Open targets of auto-update environments: committed, or moved in the waves of their environment's plan. */
  autoPairs: Pair[];
  /** Open targets of the other environments: a pending release each. */
  released: Pair[];
  /** Whether an auto-update environment's rollout plan takes some of `autoPairs` (an image rollout, not a commit). */
  planned: boolean;
}

/**
 * Routes the targets from the rows the project read (pure, issue 46: known before the request is claimed): pinned
 * ones skipped, frozen ones refused and named (no break-glass: the request comes from CI, not a person), the open
 * ones split by the auto-update environments. A chart version is not an image rollout's change: never planned.
 */
export function routeTargets(
  project: { pins: PinRow[]; plans: StoredPlan[]; verdicts: (pairs: Pair[]) => GateVerdict[] },
  autoUpdateEnvironments: string[],
  pairs: Pair[],
  field: ImageUpdate['field'],
): Routed {
  const skipped: Skipped[] = [];
  const pins = pinsOf(project.pins, pairs);
  const unpinned = pairs.filter((p) => {
    const pin = pins.get(pairKey(p.tenant, p.environment));
    if (pin) skipped.push({ ...p, reason: 'pinned', detail: pin.reason });
    return !pin;
  });
  const open: Pair[] = [];
  const verdicts = project.verdicts(unpinned);
  unpinned.forEach((p, i) => {
    const verdict = verdicts[i]!;
    if (verdict.blocked) skipped.push({ ...p, reason: 'frozen', detail: frozenMessage(verdict.freezes) });
    else open.push(p);
  });
  const auto = new Set(autoUpdateEnvironments);
  const autoPairs = open.filter((p) => auto.has(p.environment));
  return {
    skipped,
    autoPairs,
    released: open.filter((p) => !auto.has(p.environment)),
    planned: field !== 'chart' && planCovers(project.plans, autoPairs),
  };
}

/** The update of each workload to the pairs committed now (none when no pair is). */
export function updatesOf(
  workloads: string[],
  pairs: Pair[],
  payload: { tag: string; field?: ImageUpdate['field'] },
  requestId: string,
): ImageUpdate[] {
  if (pairs.length === 0) return [];
  return workloads.map((workload) => ({
    workload,
    tag: payload.tag,
    requestId,
    pairs,
    ...(payload.field ? { field: payload.field } : {}),
  }));
}
