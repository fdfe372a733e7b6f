import type { Queryable } from '../db/knex';
import { renderDigest } from '../gitops/commit-path';
import type { LoadedProject } from '../gitops/delivery-model';
import { validateDelivery, type DeliveryValidation } from '../gitops/delivery-validation';
import { renderAll } from '../gitops/manifests';
import { movedTargets } from '../gitops/target-operation';
import { changeGroups, type CommitGroup, type DependencyNode } from '../projects/workload-order';
import type { WorkloadChange } from '../projects/workload-spec';
import type { ValidationEngine } from '../validation';
import { withReleaseChanges } from './release-changes';
import type { ReleasePolicyCheck, ReleasePolicyPorts } from './release-policy-ports';
import type { ApprovalPolicySnapshot } from './release-workflow-contract';

export interface ReleaseEvaluationDeps {
  validation: ValidationEngine;
  releasePolicies: ReleasePolicyPorts;
}

/** The target a release renders: its project (loaded), tenant, environment and changes. */
export interface ReleaseTarget {
  organizationId: string;
  tenantId: string;
  tenantSlug: string;
  environment: string;
  changes: WorkloadChange[];
}

export interface ReleaseEvaluation {
  digest: string;
  validation: DeliveryValidation;
  policies: ReleasePolicyCheck;
  approvalPolicies: ApprovalPolicySnapshot[];
  /** Why the release would stop at Blocked: validation under the project policy, or an enforce policy rule. */
  blockReason: string | null;
}

/** The target's files rendered with the release's changes, validated under the project's validation policy. */
export function validateRelease(
  engine: ValidationEngine,
  loaded: LoadedProject,
  target: Pick<ReleaseTarget, 'tenantSlug' | 'environment' | 'changes'>,
): { files: Map<string, string>; validation: DeliveryValidation } {
  const { tenantSlug, environment } = target;
  const model = withReleaseChanges(loaded.model, tenantSlug, environment, target.changes);
  const files = renderAll(model, movedTargets(environment, [{ tenant: tenantSlug, changes: target.changes }]));
  const validation = validateDelivery(
    engine,
    files,
    loaded.environments,
    (e) => e.environment === environment,
    loaded.project.policy.validation,
  );
  return { files, validation };
}

export const validationBlockReason = (validation: DeliveryValidation) =>
  `validation: ${validation.summary.errors} error(s), ${validation.summary.deprecations} deprecation(s) under the project policy`;

/**
 * Renders the target with the release's changes, validates it against the environment's Kubernetes version under the
 * project's validation policy, checks the project's manifest policies and finds the approval policies that apply.
 * Reads only: the release's prepare activity stores the outcome, the preview route answers it.
 */
export async function evaluateRelease(
  deps: ReleaseEvaluationDeps,
  db: Queryable,
  loaded: LoadedProject,
  target: ReleaseTarget,
): Promise<ReleaseEvaluation> {
  const { environment } = target;
  const { files, validation } = validateRelease(deps.validation, loaded, target);
  const ids = { organizationId: target.organizationId, projectId: loaded.project.id };
  const production = loaded.environments.find((e) => e.environment === environment)?.production ?? false;
  const policies = await deps.releasePolicies.check(db, { ...ids, files, production });
  const approvalPolicies = await deps.releasePolicies.approvalPolicies(db, {
    ...ids,
    environment,
    tenantId: target.tenantId,
  });
  const blockReason = validation.blocked
    ? validationBlockReason(validation)
    : policies.blocked
      ? `policy: ${policies.failedEnforced.join(', ')}`
      : null;
  return { digest: renderDigest(files), validation, policies, approvalPolicies, blockReason };
}

/**
 * The release's changes in service order (docs/releases.md, "Service order"): a group per `orderByDependencies` step,
 * each with the digest of the files it renders (what its own commit compares). Empty when one commit does it all: no
 * dependency links the changed workloads, or the release changes nothing and deploys its target as it is.
 */
export function releaseGroups(
  loaded: LoadedProject,
  nodes: readonly DependencyNode[],
  target: Pick<ReleaseTarget, 'tenantSlug' | 'environment' | 'changes'>,
): CommitGroup<WorkloadChange>[] {
  const { tenantSlug, environment } = target;
  const groups = changeGroups(nodes, target.changes);
  if (groups.length < 2) return [];
  const model = withReleaseChanges(loaded.model, tenantSlug, environment, target.changes);
  return groups.map((changes) => ({
    workloads: changes.map((c) => c.workload),
    changes,
    digest: renderDigest(renderAll(model, movedTargets(environment, [{ tenant: tenantSlug, changes }]))),
  }));
}
