import type { Queryable } from '../db/knex';
import type { ApprovalPolicySnapshot } from './release-workflow-contract';

/** What the manifest policies of a project made of a release's rendered files. */
export interface ReleasePolicyCheck {
  /** An enabled enforce rule failed. */
  blocked: boolean;
  /** `<policy>/<rule>` of every failed rule, enforce and audit (what a later release may resolve). */
  failed: string[];
  /** The failed enforce rules among them (for the Blocked reason). */
  failedEnforced: string[];
  /** Violations of enforce and audit rules together. */
  violations: number;
  summary: Record<string, unknown>;
  /** The full evaluation, stored on the release and shown in its details. */
  report: unknown;
}

/**
 * The governance modules a release consults, as ports (the composition root wires the policies and approval-policies
 * modules in), so the release activities depend on what they ask, not on those modules' tables.
 */
export interface ReleasePolicyPorts {
  check(
    db: Queryable,
    input: { organizationId: string; projectId: string; files: Map<string, string>; production: boolean },
  ): Promise<ReleasePolicyCheck>;
  approvalPolicies(
    db: Queryable,
    target: { organizationId: string; projectId: string; environment: string; tenantId: string },
  ): Promise<ApprovalPolicySnapshot[]>;
}
