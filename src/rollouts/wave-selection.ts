import type { PlanWave } from './rollout-plan';

export interface SelectableTenant {
  slug: string;
  labels: Record<string, string>;
}

/** A plan wave with the tenants it moves, fixed when the rollout starts. */
export type ResolvedWave = Omit<PlanWave, 'tenants' | 'selector' | 'percent'> & {
  selection: string;
  tenants: string[];
};

function selectionText(wave: PlanWave): string {
  if (wave.tenants) return `tenants ${wave.tenants.join(', ')}`;
  if (wave.selector) {
    return `labels ${Object.entries(wave.selector.matchLabels)
      .map(([k, v]) => `${k}=${v}`)
      .join(',')}`;
  }
  return `${wave.percent}% of the remaining tenants`;
}

/**
 * The tenants of each wave, in plan order, among `candidates` (the tenants the rollout moves, in slug order): named
 * tenants, tenants whose labels match every label of the selector, or the first `ceil(percent)` share of the tenants no
 * earlier wave took. A tenant is in one wave only, its first; tenants no wave selects join the last wave, so a
 * rollout never leaves a tenant behind. Waves left without tenants stay in the list (the workflow skips them).
 */
export function resolveWaves(waves: readonly PlanWave[], candidates: readonly SelectableTenant[]): ResolvedWave[] {
  const remaining = [...candidates];
  const take = (pick: (t: SelectableTenant) => boolean) => {
    const taken = remaining.filter(pick);
    for (const t of taken) remaining.splice(remaining.indexOf(t), 1);
    return taken.map((t) => t.slug);
  };
  const resolved = waves.map((wave) => {
    const { tenants: named, selector, percent, ...rest } = wave;
    let tenants: string[];
    if (named) tenants = take((t) => named.includes(t.slug));
    else if (selector) {
      tenants = take((t) => Object.entries(selector.matchLabels).every(([k, v]) => t.labels[k] === v));
    } else {
      const share = new Set(remaining.slice(0, Math.ceil(((percent ?? 100) * remaining.length) / 100)));
      tenants = take((t) => share.has(t));
    }
    return { ...rest, selection: selectionText(wave), tenants };
  });
  const last = resolved[resolved.length - 1];
  if (last && remaining.length > 0) last.tenants.push(...remaining.map((t) => t.slug));
  return resolved;
}
