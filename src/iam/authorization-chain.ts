import { Forbidden } from '../errors';
import { anyPatternMatches } from './action-glob';
import type { OrgRole, Principal } from './principal';
import { resourceRefsOf, type ResourceRef } from './resource-refs';
import { atLeast, minimumRole, type ActionRoleTable } from './role-authorizer';

/**
 * The last link of the chain: approval policies can gate an action even when role and grants permit it (the
 * releases issue registers them). A hook throws (Forbidden, Conflict, Unprocessable) to stop the request.
 */
export interface ApprovalPolicyHook {
  name: string;
  /** `context` is the HTTP request context of the route (api/context.ts AppContext). */
  check(input: { principal: Principal; action: string; context: unknown }): Promise<void>;
}

export interface Decision {
  action: string;
  allowed: boolean;
  /** The organization-role floor of the action; null when the action is unknown (denied by default). */
  requiredRole: OrgRole | null;
  organizationRole: OrgRole | null;
  /** The strongest role resource grants give on the resources the action names. */
  grantRole: OrgRole | null;
  /** Which link decided: `organization-role`, `resource-grant`, or why it was denied. */
  reason:
    | 'organization-role'
    | 'resource-grant'
    | 'not-a-member'
    | 'unknown-action'
    | 'insufficient-role'
    | 'credential-restriction';
  resources: ResourceRef[];
}

/**
 * The resource-grant link's one question, answered by the permissions domain (src/permissions/grant-roles.ts): the
 * kernel depends on no domain, so the store of grants is passed in.
 */
export interface GrantRoles {
  ofUser(organizationId: string, userId: string, resources: readonly ResourceRef[]): Promise<OrgRole | null>;
  ofServiceAccount(
    organizationId: string,
    serviceAccountId: string,
    resources: readonly ResourceRef[],
  ): Promise<OrgRole | null>;
}

export interface AuthorizationChain {
  /** Role and grants only, no hooks and no error: used by the effective-permissions view. */
  decide(principal: Principal, action: string): Promise<Decision>;
  /** The whole chain for a request; throws Forbidden with a plain reason. Called after identity and org context. */
  authorize(principal: Principal, action: string, context: unknown): Promise<void>;
  addApprovalPolicy(hook: ApprovalPolicyHook): void;
  /**
   * What the approval-policy link would refuse for `action` with this request, without refusing: a preview names the
   * gate its apply would meet (each message names the policy). Errors other than a refusal propagate.
   */
  approvalRefusals(principal: Principal, action: string, context: unknown): Promise<string[]>;
  readonly actionRoles: ActionRoleTable;
}

/**
 * identity (authenticators) -> organization context (token org_id, current membership) -> organization role ->
 * resource grants -> approval policies. One instance serves every route (api/mount-routes.ts).
 */
export function createAuthorizationChain(grants: GrantRoles, actionRoles: ActionRoleTable): AuthorizationChain {
  const hooks: ApprovalPolicyHook[] = [];

  async function grantRoleOf(principal: Principal, organizationId: string, resources: ResourceRef[]) {
    if (principal.serviceAccountId !== undefined) {
      return grants.ofServiceAccount(organizationId, principal.serviceAccountId, resources);
    }
    return principal.userId === null ? null : grants.ofUser(organizationId, principal.userId, resources);
  }

  async function decide(principal: Principal, action: string): Promise<Decision> {
    const resources = resourceRefsOf(action);
    const base = { action, resources, organizationRole: principal.role, grantRole: null };
    const requiredRole = minimumRole(actionRoles, action);
    if (principal.organizationId === null || principal.role === null) {
      return { ...base, allowed: false, requiredRole, reason: 'not-a-member' };
    }
    if (requiredRole === null) return { ...base, allowed: false, requiredRole, reason: 'unknown-action' };
    // A key or token never exceeds its own restriction, whatever the role or grants behind it (docs/security.md KEY-3).
    const { restriction } = principal;
    const refused = { ...base, allowed: false, requiredRole, reason: 'credential-restriction' } as const;
    if (restriction && !anyPatternMatches(restriction.allowedActions, action)) return refused;
    const capped = (d: Decision): Decision =>
      d.allowed && restriction && !atLeast(restriction.roleCap, requiredRole)
        ? { ...refused, grantRole: d.grantRole }
        : d;
    if (atLeast(principal.role, requiredRole)) {
      return capped({ ...base, allowed: true, requiredRole, reason: 'organization-role' });
    }
    const grantRole = await grantRoleOf(principal, principal.organizationId, resources);
    const allowed = atLeast(grantRole, requiredRole);
    return capped({
      ...base,
      grantRole,
      allowed,
      requiredRole,
      reason: allowed ? 'resource-grant' : 'insufficient-role',
    });
  }

  return {
    actionRoles,
    decide,
    async authorize(principal, action, context) {
      const decision = await decide(principal, action);
      if (!decision.allowed) {
        if (decision.reason === 'not-a-member') throw new Forbidden('you are not a member of the active organization');
        if (decision.reason === 'unknown-action') throw new Forbidden(`action ${action} is not permitted`);
        if (decision.reason === 'credential-restriction') {
          throw new Forbidden(`this credential does not allow the action ${action}`);
        }
        throw new Forbidden(`this action requires the ${decision.requiredRole ?? 'owner'} role`);
      }
      for (const hook of hooks) await hook.check({ principal, action, context });
    },
    addApprovalPolicy(hook) {
      hooks.push(hook);
    },
    async approvalRefusals(principal, action, context) {
      const refusals: string[] = [];
      for (const hook of hooks) {
        try {
          await hook.check({ principal, action, context });
        } catch (err) {
          if (!(err instanceof Forbidden)) throw err;
          refusals.push(err.message);
        }
      }
      return refusals;
    },
  };
}
