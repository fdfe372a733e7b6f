import type { AuditActor, AuditEntryInput } from '../audit/types';
import { InvalidInput, NotFound, Unauthorized } from '../errors';
import { isUuid } from '../db/uuid';
import type { OrgRole, Principal } from './principal';

/** Who is acting and for which request: what services need to scope queries and to write audit entries. */
export interface Caller {
  principal: Principal;
  requestId: string | null;
}

/** A caller whose request carries an active organization (the route's access kind guarantees it). */
export interface OrgCaller extends Caller {
  organizationId: string;
  role: OrgRole;
}

export function requireOrg(caller: Caller): OrgCaller {
  const { organizationId, role } = caller.principal;
  if (organizationId === null) throw new InvalidInput('missing organization context');
  if (role === null) throw new NotFound('organization not found');
  return { ...caller, organizationId, role };
}

export function requireUser(caller: Caller): { userId: string; email: string } {
  const { userId, email } = caller.principal;
  if (userId === null || email === null) throw new Unauthorized('a user session is required');
  return { userId, email };
}

/** The actor fields every audit entry written on behalf of this caller carries. */
export function auditActor(caller: Caller): AuditActor {
  return {
    userId: caller.principal.userId,
    actorType: caller.principal.actorType,
    actor: caller.principal.actor,
    requestId: caller.requestId,
  };
}

/** Parses a uuid path identifier for `scopedLookup`: anything else names nothing. */
export function uuidKey(raw: string): string | null {
  return isUuid(raw) ? raw.toLowerCase() : null;
}

/** An audit entry in the caller's organization chain, with the caller as actor. */
export function orgEntry(
  caller: OrgCaller,
  entry: Omit<AuditEntryInput, 'organizationId' | 'userId' | 'actorType' | 'actor' | 'requestId'>,
): AuditEntryInput {
  return { organizationId: caller.organizationId, ...auditActor(caller), ...entry };
}

/** What the caller's credential holds, for the "never confers more than it holds" checks (conferred-role.ts). */
export function holderOf(caller: OrgCaller): { role: OrgRole; restriction?: Principal['restriction'] } {
  return { role: caller.role, restriction: caller.principal.restriction };
}
