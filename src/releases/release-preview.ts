import type { Db } from '../db/knex';
import { NotFound } from '../errors';
import { loadProject } from '../gitops/delivery-model';
import type { WorkloadSources } from '../gitops/workload-sources';
import { frozenMessage, type GovernanceGate } from '../governance/governance-verdict';
import type { OrgCaller } from '../iam/caller';
import { pairKey, pinView, pinnedPairs } from '../pins/pin-repository';
import type { ProjectService } from '../projects/project-service';
import type { WorkloadChange } from '../projects/workload-spec';
import { evaluateRelease, type ReleaseEvaluationDeps } from './release-evaluation';
import { releaseTarget, requestedWorkloads } from './release-target';
import { targetQueue } from './target-queue';
import { validationView } from './release-validation-gate';

export interface ReleasePreviewDeps {
  db: Db;
  projects: Pick<ProjectService, 'projectOf'>;
  evaluation: ReleaseEvaluationDeps;
  governance: GovernanceGate;
  publicUrl: string;
  sources: WorkloadSources;
}

/**
 * What creating this release would meet, computed like its prepare activity and its create call but changing nothing:
 * validation per resource, the manifest policies, the approval policies that apply, the freezes in force, the target's
 * pin, the release holding the target (by title: it would queue behind it), and the status the release would reach
 * first. A request the create route refuses with 400 is refused alike.
 */
export async function previewRelease(
  deps: ReleasePreviewDeps,
  caller: OrgCaller,
  slug: string,
  input: { environment: string; tenantId: string; title: string; changes?: WorkloadChange[] },
) {
  const { db } = deps;
  const project = await deps.projects.projectOf(caller, slug);
  const loaded = await loadProject(db, caller.organizationId, project.id, deps, requestedWorkloads(input));
  if (!loaded) throw new NotFound('project not found');
  const { tenant, environment, changes } = releaseTarget(loaded, input);
  const evaluation = await evaluateRelease(deps.evaluation, db, loaded, {
    organizationId: caller.organizationId,
    tenantId: tenant.id,
    tenantSlug: tenant.slug,
    environment,
    changes,
  });
  const gate = await deps.governance.check(
    db,
    { organizationId: caller.organizationId, projectId: project.id, environment, tenants: [tenant.slug] },
    'release.deploy',
    caller.principal.userId,
  );
  const pin = (await pinnedPairs(db, project.id, [{ tenant: tenant.slug, environment }])).get(
    pairKey(tenant.slug, environment),
  );
  const approvals = gate.breakGlass ? [] : evaluation.approvalPolicies;
  const queue = await targetQueue(db, { projectId: project.id, tenantId: tenant.id, environment });
  // What the create route refuses (422 for validation, docs/releases.md) is Refused here, not Blocked.
  const refusal = project.archived
    ? 'the project is archived'
    : gate.blocked
      ? `${tenant.slug}/${environment} is ${frozenMessage(gate.freezes)}`
      : evaluation.validation.blocked
        ? evaluation.blockReason
        : null;
  const outcome = refusal
    ? { status: 'Refused', reason: refusal }
    : evaluation.blockReason
      ? { status: 'Blocked', reason: evaluation.blockReason }
      : approvals.length > 0
        ? { status: 'PendingApproval', reason: approvals.map((p) => p.name).join(', ') }
        : !loaded.project.policy.releases.autoDeploy
          ? { status: 'AwaitingDeploy', reason: null }
          : queue
            ? { status: 'Queued', reason: queue.reason }
            : { status: 'Deploying', reason: null };
  const { validation, policies } = evaluation;
  return {
    project: project.slug,
    tenant: tenant.slug,
    tenantId: tenant.id,
    environment,
    changes,
    outcome,
    validation: validationView(validation),
    policies: {
      blocked: policies.blocked,
      failed: policies.failed,
      failedEnforced: policies.failedEnforced,
      violations: policies.violations,
      summary: policies.summary,
    },
    approvalPolicies: approvals.map((p) => ({ id: p.id, name: p.name, requiredApprovals: p.requiredApprovals })),
    freezes: gate.freezes,
    breakGlass: gate.breakGlass,
    pin: pin ? pinView(pin) : null,
    queue,
  };
}
