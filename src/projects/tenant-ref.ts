/**
 * How callers name a tenant, the same on every route: the project tenant's `id`, its tenant catalogue entry's id
 * (`catalogueTenantId`), or its slug. Ids compare case-insensitively, as UUIDs do.
 */
export interface TenantNames {
  id: string;
  catalogueTenantId: string;
  slug: string;
}

export function namesTenant(tenant: TenantNames, ref: string): boolean {
  const key = ref.toLowerCase();
  return tenant.slug === key || tenant.id === key || tenant.catalogueTenantId === key;
}

/**
 * The slug of the tenant `ref` names among a project's `tenants`; a ref that names none stays as it was, so the
 * caller's "unknown tenant" check reports it in the caller's own words.
 */
export function tenantSlugOf(tenants: readonly TenantNames[], ref: string): string {
  return tenants.find((t) => namesTenant(t, ref))?.slug ?? ref;
}

export function tenantSlugsOf(tenants: readonly TenantNames[], refs: readonly string[]): string[] {
  return refs.map((ref) => tenantSlugOf(tenants, ref));
}
