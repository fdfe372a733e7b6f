import type {
  Deployment,
  Freeze,
  Pin,
  PromotionSummary as Promotion,
  ReleaseSummary as Release,
  Rollout,
  Workload,
} from '../../api/models';
import { FINAL_STATUSES as FINAL, PROMOTION_FINAL_STATUSES } from '../releases/final';

export interface Cell {
  tag: string;
  pin: Pin | null;
  freezes: Freeze[];
  inFlight: Release | null;
  /** The unfinished promotion moving this tenant into this environment. */
  promotion: Promotion | null;
  /** What the deployments matrix says of the Application: the version last committed and the one running. */
  deployment: Deployment | null;
  /** The unfinished rollout whose wave holds this tenant in this environment, with that wave's place and state. */
  rollout: { id: string; wave: number; waves: number; state: string } | null;
}

/** What the matrix reads besides the project's configuration. */
export interface Activity {
  pins: Pin[];
  freezes: Freeze[];
  releases: Release[];
  promotions: Promotion[];
  deployments: Deployment[];
  /** Rollouts of the project (unfinished ones mark their waves' tenants); absent: none. */
  rollouts?: Rollout[];
  /** The instant shown (ISO), null for now: then each cell's version is the one committed at that instant. */
  at?: string | null;
}

/** The desired tag of a workload for a tenant and environment: tenant override, else environment override, else base. */
export function desiredTag(workload: Workload, tenant: string, environment: string): string {
  return (
    workload.overrides?.tenants?.[tenant]?.[environment]?.tag ??
    workload.overrides?.environments?.[environment]?.tag ??
    workload.image.tag
  );
}

/**
 * Indexes pins, active freezes, unfinished releases, promotions and rollouts and the deployments once, so each of the matrix's
 * cells is a few map lookups.
 */
export function cellReader({ pins, freezes, releases, promotions, deployments, rollouts = [], at }: Activity) {
  const pinOf = new Map(pins.map((p) => [`${p.tenant}/${p.environment}`, p]));
  const active = freezes.filter((f) => f.active);
  const flight = new Map<string, Release>();
  // Newest first: the first unfinished release of a target is the one in flight.
  for (const r of releases) {
    const key = `${r.tenant}/${r.environment}`;
    if (!FINAL.has(r.status) && !flight.has(key)) flight.set(key, r);
  }
  const promoting = new Map<string, Promotion>();
  for (const p of promotions) {
    if (PROMOTION_FINAL_STATUSES.has(p.status)) continue;
    for (const move of p.moves) {
      const key = `${move.tenant}/${p.targetEnvironment}`;
      if (!promoting.has(key)) promoting.set(key, p);
    }
  }
  const deployed = new Map(deployments.map((d) => [`${d.tenant}/${d.environment}/${d.service}`, d]));
  const waving = new Map<string, NonNullable<Cell['rollout']>>();
  for (const r of rollouts) {
    if (r.status === 'Completed' || r.status === 'Aborted' || r.status === 'Superseded') continue;
    r.waves.forEach((w, i) => {
      for (const tenant of w.tenants) {
        const key = `${tenant}/${r.environment}`;
        if (!waving.has(key)) waving.set(key, { id: r.id, wave: i + 1, waves: r.waves.length, state: w.state });
      }
    });
  }
  return (workload: Workload, tenant: string, environment: string): Cell => ({
    tag: at
      ? (deployed.get(`${tenant}/${environment}/${workload.name}`)?.desired?.version ?? '-')
      : desiredTag(workload, tenant, environment),
    pin: pinOf.get(`${tenant}/${environment}`) ?? null,
    freezes: active.filter(
      (f) =>
        (f.environments.length === 0 || f.environments.includes(environment)) &&
        (f.tenants.length === 0 || f.tenants.includes(tenant)),
    ),
    inFlight: flight.get(`${tenant}/${environment}`) ?? null,
    promotion: promoting.get(`${tenant}/${environment}`) ?? null,
    deployment: deployed.get(`${tenant}/${environment}/${workload.name}`) ?? null,
    rollout: waving.get(`${tenant}/${environment}`) ?? null,
  });
}
