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
