import type { RequestSchema } from '../../api/request-schemas';

/** Shapes of the governance routes' answers (docs/freezes-and-break-glass.md, docs/policies.md). */

export interface Window {
  startsAt: string;
  endsAt: string;
}

export interface FreezeView {
  id: string;
  name: string;
  reason: string;
  scope: 'organization' | 'project';
  projects: string[];
  environments: string[];
  tenants: string[];
  startsAt: string;
  endsAt: string | null;
  rrule: string | null;
  timeZone: string | null;
  durationMinutes: number | null;
  active: boolean;
  current: Window | null;
  upcoming: Window[];
}

export interface StopTheLine {
  enabled: boolean;
  reason: string;
  changedBy: string | null;
  changedAt: string | null;
}

export interface BreakGlassSession {
  id: string;
  actor: string;
  justification: string;
  durationMinutes: number;
  scope: { projectIds: string[]; environments: string[] };
  openedAt: string;
  endsAt: string;
  closedAt: string | null;
  closedBy: string | null;
  closeReason: string | null;
  status: 'open' | 'closed';
}

export interface SessionAction {
  id: string;
  action: string;
  actor: string;
  status: string;
  details: Record<string, unknown>;
  createdAt: string;
}

export interface Policy {
  id: string;
  name: string;
  description: string;
  enabled: boolean;
  mode: 'enforce' | 'audit';
  rules: PolicyRule[];
}

/**
 * A manifest policy rule (schemas/requests/policy-create.json). Written out here: the generated client types turn the
 * schema's discriminated `oneOf` into variants whose `type` is the schema name, which no rule matches.
 */
export type PolicyRule = { id?: string; mode?: 'enforce' | 'audit' } & (
  | { type: 'required-labels'; labels: string[]; kinds?: string[] }
  | { type: 'allowed-registries'; registries: string[] }
  | { type: 'resources-required'; requests?: ('cpu' | 'memory')[]; limits?: ('cpu' | 'memory')[] }
  | { type: 'no-latest-tag' }
  | { type: 'replicas-bounds'; min?: number; max?: number }
);

export interface ApprovalPolicy {
  id: string;
  name: string;
  environments: string[];
  requiredApprovals: number;
  eligibleApprovers: RequestSchema<'approval-policy-create'>['eligibleApprovers'];
  allowSelfApproval: boolean;
  enabled: boolean;
}

export interface PolicyEvaluation {
  blocked: boolean;
  results: {
    policyId: string;
    name: string;
    blocked: boolean;
    passed: boolean;
    results: {
      ruleId: string;
      mode: string;
      passed: boolean;
      violations: { file: string; kind: string; name: string; path: string; message: string }[];
    }[];
  }[];
}
