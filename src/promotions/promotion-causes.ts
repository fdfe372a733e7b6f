import type { Quorum } from '../approval-policies/approval-decision';
import type { UnverifiedVersion } from '../deployments/source-verification';
import { freezesClearAt, frozenMessage, type FreezeHit } from '../governance/governance-verdict';
import type { Cause } from './promotion-workflow-contract';

/** What the evaluation of a promotion read (activities/promotion.ts gathers it in one transaction). */
export interface PromotionFacts {
  sourceEnvironment: string;
  targetEnvironment: string;
  /** The freezes that hold the target (none under the requester's break-glass: governance-verdict.ts). */
  freezes: FreezeHit[];
  /** The requester holds a break-glass session: approvals and source verification are waived. */
  breakGlass: boolean;
  /** The approval quorum, when policies cover the target (null: none, or not asked under break-glass). */
  approvals: Quorum | null;
  /** The manifest policy check of the rendered target: blocked by the enforced rules it names. */
  policy: { blocked: boolean; failedEnforced: string[] };
  /** Tenants whose latest release in the source is not Healthy. */
  unhealthy: { tenant: string; releaseId: string; status: string }[];
  /** Versions the source has not verified yet, and when the earliest soak ends. */
  unverified: UnverifiedVersion[];
  soakEndsAt: number | null;
  /** Releases deploying to the target now. */
  busy: { id: string }[];
}

/**
 * The causes that block a promotion, every one that holds, and the earliest instant one clears by itself (a freeze's
 * end or a soak's; null when only a person or another workflow can clear them).
 */
export function promotionCauses(facts: PromotionFacts): { causes: Cause[]; clearsAt: number | null } {
  const causes: Cause[] = [];
  let clearsAt: number | null = null;
  if (facts.freezes.length > 0) {
    const { freezes } = facts;
    causes.push({
      cause: 'freeze',
      message: `the target environment is ${frozenMessage(freezes)}`,
      details: { freezes },
    });
    clearsAt = freezesClearAt(freezes);
  }
  const q = facts.approvals;
  if (!facts.breakGlass && q && !q.met) {
    causes.push({
      cause: 'approvals',
      message: `waiting for approvals: ${q.received} of ${q.required}`,
      details: { perPolicy: q.perPolicy },
    });
  }
  if (facts.policy.blocked) {
    causes.push({
      cause: 'policy',
      message: `enforced policy rules fail: ${facts.policy.failedEnforced.join(', ')}`,
      details: { failed: facts.policy.failedEnforced },
    });
  }
  if (facts.unhealthy.length > 0) {
    causes.push({
      cause: 'sourceUnhealthy',
      message: `${facts.sourceEnvironment} is not healthy for ${facts.unhealthy.map((u) => u.tenant).join(', ')}`,
      details: { releases: facts.unhealthy },
    });
  }
  // A version leaves the source only once verified there (Synced and Healthy at a revision that carries it, for the
  // soak time); the requester's break-glass session overrides it, and the commit's entry carries the session.
  if (facts.unverified.length > 0 && !facts.breakGlass) {
    const named = facts.unverified.map((u) => `${u.tenant}/${u.service} ${u.version} (${u.reason})`);
    causes.push({
      cause: 'sourceUnverified',
      message: `${facts.sourceEnvironment} has not verified ${named.join(', ')}`,
      details: { unverified: facts.unverified },
    });
    if (facts.soakEndsAt !== null) clearsAt = Math.min(clearsAt ?? Infinity, facts.soakEndsAt);
  }
  if (facts.busy.length > 0) {
    causes.push({
      cause: 'targetBusy',
      message: `another release is deploying to ${facts.targetEnvironment}: ${facts.busy.map((r) => r.id).join(', ')}`,
      details: { releases: facts.busy },
    });
  }
  return { causes, clearsAt };
}
