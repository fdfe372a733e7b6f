import type { Queryable } from '../db/knex';
import { evaluatePolicies, type PoliciesOutcome } from './policy-evaluation';
import { enabledPoliciesOf } from './policy-repository';
import type { RuleContext } from './policy-rules';

export type { PoliciesOutcome, PolicyEvaluation } from './policy-evaluation';

/**
 * The policy step of a release (for the release activity): the project's enabled policies over the files the
 * release would commit (path -> YAML). `blocked` when an enforce rule fails; audit rules only report. Reads only;
 * a hostile file throws ManifestRejected (400/413) like the validation engine.
 */
export async function checkPolicies(
  db: Queryable,
  organizationId: string,
  projectId: string,
  files: Map<string, string>,
  ctx: RuleContext,
): Promise<PoliciesOutcome> {
  return evaluatePolicies(await enabledPoliciesOf(db, organizationId, projectId), files, ctx);
}

/**
 * `checkPolicies` in the shape of the release module's `ReleasePolicyPorts.check` (src/releases on main): the failed
 * enforce rules named `<policy>/<rule id>` for the Blocked reason, counts for the summary, the full outcome as report.
 */
export async function releasePolicyCheck(
  db: Queryable,
  input: { organizationId: string; projectId: string; files: Map<string, string>; production: boolean },
) {
  const outcome = await checkPolicies(db, input.organizationId, input.projectId, input.files, {
    production: input.production,
  });
  const failed = outcome.results.flatMap((policy) =>
    policy.results.filter((r) => !r.passed).map((rule) => ({ ...rule, label: `${policy.name}/${rule.ruleId}` })),
  );
  const failedEnforced = failed.filter((r) => r.mode === 'enforce').map((r) => r.label);
  return {
    blocked: outcome.blocked,
    failed: failed.map((r) => r.label),
    failedEnforced,
    violations: failed.reduce((sum, r) => sum + r.violationCount, 0),
    summary: {
      policies: outcome.results.length,
      rules: outcome.results.reduce((sum, p) => sum + p.results.length, 0),
      failedEnforce: failedEnforced.length,
      failedAudit: failed.length - failedEnforced.length,
    },
    report: outcome,
  };
}
