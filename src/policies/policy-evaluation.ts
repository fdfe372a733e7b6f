import { manifestObjects } from './manifest-objects';
import { effectiveRules, type Policy } from './policy-repository';
import { blocks, evaluateRule, type RuleContext, type RuleResult } from './policy-rules';

/** The answer of one policy over a manifest set. */
export interface PolicyEvaluation {
  policyId: string;
  name: string;
  /** True when one of its enforce rules failed. */
  blocked: boolean;
  passed: boolean;
  results: RuleResult[];
}

export interface PoliciesOutcome {
  /** True when any enforce rule of any policy failed: a release stops (status Blocked with the rule). */
  blocked: boolean;
  results: PolicyEvaluation[];
}

/** Every policy over one parse of the files (pure: no I/O). */
export function evaluatePolicies(
  policies: readonly Pick<Policy, 'id' | 'name' | 'mode' | 'rules'>[],
  files: Map<string, string>,
  ctx: RuleContext,
): PoliciesOutcome {
  const objects = policies.length > 0 ? manifestObjects(files) : [];
  const results = policies.map((policy) => {
    const ruleResults = effectiveRules(policy).map((rule) => evaluateRule(rule, objects, ctx));
    return {
      policyId: policy.id,
      name: policy.name,
      blocked: blocks(ruleResults),
      passed: ruleResults.every((r) => r.passed),
      results: ruleResults,
    };
  });
  return { blocked: results.some((r) => r.blocked), results };
}
