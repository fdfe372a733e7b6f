import type { Freeze, Pin, Release, Workload } from '../../api/models';

import { FINAL_STATUSES as FINAL } from '../releases/final';

export interface Cell {
  tag: string;
  pin: Pin | null;
  freezes: Freeze[];
  inFlight: Release | null;
}

/** The desired tag of a workload for a tenant and environment: tenant override, else environment override, else base. */
export function desiredTag(workload: Workload, tenant: string, environment: string): string {
  return (
    workload.overrides?.tenants?.[tenant]?.[environment]?.tag ??
    workload.overrides?.environments?.[environment]?.tag ??
    workload.image.tag
  );
}

/** Indexes pins, active freezes and unfinished releases once, so each of the matrix's cells is a few map lookups. */
export function cellReader(pins: Pin[], freezes: Freeze[], releases: Release[]) {
  const pinOf = new Map(pins.map((p) => [`${p.tenant}/${p.environment}`, p]));
  const active = freezes.filter((f) => f.active);
  const flight = new Map<string, Release>();
  // Newest first: the first unfinished release of a target is the one in flight.
  for (const r of releases) {
    const key = `${r.tenant}/${r.environment}`;
    if (!FINAL.has(r.status) && !flight.has(key)) flight.set(key, r);
  }
  return (workload: Workload, tenant: string, environment: string): Cell => ({
    tag: desiredTag(workload, tenant, environment),
    pin: pinOf.get(`${tenant}/${environment}`) ?? null,
    freezes: active.filter(
      (f) =>
        (f.environments.length === 0 || f.environments.includes(environment)) &&
        (f.tenants.length === 0 || f.tenants.includes(tenant)),
    ),
    inFlight: flight.get(`${tenant}/${environment}`) ?? null,
  });
}
