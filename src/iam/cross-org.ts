import type { AuditService } from '../audit/audit-service';
import type { AuditCategory, AuditEntryInput } from '../audit/types';
import type { Db, Queryable, Tx } from '../db/knex';
import { NotFound } from '../errors';
import { orgEntry, uuidKey, type OrgCaller } from './caller';
import type { LookupMisses } from './lookup-misses';

export interface CrossOrgDeps {
  db: Queryable;
  misses: LookupMisses;
}

/** What every organization-scoped domain service is built from. */
export interface OrgDomainDeps {
  db: Db;
  audit: AuditService;
  misses: LookupMisses;
}

/** How to find a resource by the identifier a caller sent, regardless of organization. */
export interface ResourceProbe {
  table: string;
  /** Column the identifier is matched against (id, slug). */
  column: string;
  value: string;
  /** Readable type for the message and the security log, e.g. `team`. */
  resourceType: string;
  category: AuditCategory;
  /** Column holding the owning organization; `id` for the organizations table itself. */
  orgColumn?: string;
}

/**
 * Another organization's resources answer exactly like missing ones (404, same message, no data, same work): the
 * probe query runs for both, both count against the caller's miss limit, and only the operators' security log and
 * metrics learn that the identifier belonged elsewhere (lookup-misses.ts).
 */
export async function notFoundInOrg(deps: CrossOrgDeps, caller: OrgCaller, probe: ResourceProbe): Promise<never> {
  const orgColumn = probe.orgColumn ?? 'organization_id';
  const foreign = (await deps
    .db(probe.table)
    .where(probe.column, probe.value)
    .whereNot(orgColumn, caller.organizationId)
    .first(orgColumn)) as Record<string, string> | undefined;
  await deps.misses.record(caller, probe, foreign !== undefined);
  throw new NotFound(`${probe.resourceType} not found`);
}

/** What a by-identifier lookup of one resource type needs: where to probe and how the path value is checked. */
export interface LookupSpec extends Omit<ResourceProbe, 'value'> {
  /** Normalises the path value; null means it cannot name anything (plain 404, no probe). */
  parse(raw: string): string | null;
}

/**
 * The one way services turn a path identifier into a resource of the caller's organization: found, or 404 exactly
 * like a missing one (see `notFoundInOrg`).
 */
export function scopedLookup<T>(
  deps: CrossOrgDeps,
  spec: LookupSpec,
  find: (db: Queryable, organizationId: string, key: string) => Promise<T | null>,
) {
  return async (caller: OrgCaller, raw: string, db: Queryable = deps.db): Promise<T> => {
    const key = spec.parse(raw);
    const found = key === null ? null : await find(db, caller.organizationId, key);
    if (found) return found;
    if (key === null) throw new NotFound(`${spec.resourceType} not found`);
    return notFoundInOrg(deps, caller, { ...spec, value: key });
  };
}

/**
 * Audit writer of one resource type: entries in the caller's organization chain, with the resource's id and slug.
 * Called inside the transaction of the change it records.
 */
export function resourceAuditor(audit: AuditService, category: AuditCategory, resourceType: string) {
  return (
    trx: Tx,
    caller: OrgCaller,
    action: string,
    resource: { id: string; slug: string },
    details: Record<string, unknown> = {},
    extra: Partial<Pick<AuditEntryInput, 'tenantId' | 'projectId'>> = {},
  ) =>
    audit.append(
      trx,
      orgEntry(caller, {
        action,
        category,
        resourceType,
        resourceId: resource.id,
        details: { slug: resource.slug, ...details },
        ...extra,
      }),
    );
}

/** What `orgResource` needs: the lookup of `LookupSpec`, by uuid `id` unless `column` and `parse` say otherwise. */
export type OrgResourceSpec = Omit<LookupSpec, 'column' | 'parse'> & Partial<Pick<LookupSpec, 'column' | 'parse'>>;

/**
 * The set-up every organization-owned resource type of a service shares: the scoped by-identifier lookup (404 like
 * missing), the audit writer of its changes, and `found`, which turns a change that found
 * its row gone (a concurrent delete won) into the same 404, so the transaction rolls back with its audit entry.
 */
export function orgResource<T>(
  deps: OrgDomainDeps,
  spec: OrgResourceSpec,
  find: (db: Queryable, organizationId: string, key: string) => Promise<T | null>,
) {
  return {
    lookup: scopedLookup(deps, { column: 'id', parse: uuidKey, ...spec }, find),
    record: resourceAuditor(deps.audit, spec.category, spec.resourceType),
    found(changed: boolean): void {
      if (!changed) throw new NotFound(`${spec.resourceType} not found`);
    },
  };
}
