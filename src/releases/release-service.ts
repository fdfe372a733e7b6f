// Over 400 lines: one closure over the release's dependencies holds its creation (idempotency, governance, the row and
// its workflow started together), a rollback's creation and every human action as an Update of the workflow; they share
// the start path (start, ensureWorkflow) and the row lookups. A rollback's planning lives in rollback-planner.ts.
import { createHash, randomUUID } from 'node:crypto';
import { refuseBlockedByValidation } from './release-validation-gate';
import type { Client } from '@temporalio/client';
import { isUniqueViolation, type Tx } from '../db/knex';
import type { PageRequest } from '../db/pagination';
import { Conflict, Forbidden, InvalidInput, NotFound, Unprocessable } from '../errors';
import { recordDomainEvent } from '../events/domain-event-repository';
import { IDEMPOTENCY_KEY_PATTERN } from '../git/commit-writer';
import { auditActor, orgEntry, uuidKey, type OrgCaller } from '../iam/caller';
import { scopedLookup, type OrgDomainDeps } from '../iam/cross-org';
import { findProjectById, type Project } from '../projects/project-repository';
import type { ProjectService } from '../projects/project-service';
import type { ProjectTenantService } from '../projects/project-tenant-service';
import type { ProjectTenant } from '../projects/project-tenant-repository';
import type { WorkloadChange } from '../projects/workload-spec';
import { approverProfile } from '../approval-policies/approval-gate';
import { SEARCH_ATTRIBUTES, taskQueue } from '../temporal/definitions';
import type { WorkflowStarter } from '../temporal/start-workflow';
import { workflowLink } from '../temporal/workflow-link';
import { loadProjectWith } from '../gitops/delivery-model';
import type { WorkloadSources } from '../gitops/workload-sources';
import type { RepositoryStore } from '../git/repository-store';
import { awaitedProgress } from '../deployments/sync-verdict';
import {
  breakGlassDetails,
  frozenMessage,
  type BreakGlassGrant,
  type GateVerdict,
  type GovernanceGate,
  type GovernedAction,
} from '../governance/governance-verdict';
import { releaseUpdateError } from './release-errors';
import { rollbackGates } from './rollback-gates';
import { creationRecords } from './creation-records';
import { createRollbackPlanner } from './rollback-planner';
import { releaseVersions, versionFacts, type ReleaseVersion } from './release-versions';
import { workflowTimeline } from './release-history';
import type { ReleaseEvaluationDeps } from './release-evaluation';
import { previewRelease } from './release-preview';
import { releaseTarget, requestedWorkloads } from './release-target';
import { creatorOf, reconcileRows, rowHistory } from '../temporal/workflow-rows';
import {
  findRelease,
  findReleaseByKey,
  insertRelease,
  listDecisions,
  listReleases,
  listUnstartedReleases,
  lockTarget,
  unfinishedRollback,
  markReleaseWorkflowStarted,
  type ReleaseFilter,
  type ReleaseKind,
  type ReleaseRow,
} from './release-repository';
import { releaseDetail, releaseSummary } from './release-views';
import {
  HOLDING_STATUSES,
  approveReleaseUpdate,
  cancelReleaseUpdate,
  deployReleaseUpdate,
  rejectReleaseUpdate,
  releaseWorkflowId,
  releaseWorkflowType,
  reportSyncUpdate,
  type ReleaseTiming,
} from './release-workflow-contract';
import type { SyncReport } from '../deployments/sync-report';

export interface ReleaseServiceDeps extends OrgDomainDeps {
  temporal: Client;
  workflows: WorkflowStarter;
  projects: Pick<ProjectService, 'projectOf'>;
  tenants: Pick<ProjectTenantService, 'get' | 'inProject'>;
  taskQueuePrefix: string;
  timing: ReleaseTiming;
  namespace: string;
  temporalUiUrl: string | undefined;
  repositories: RepositoryStore;
  publicUrl: string;
  sources: WorkloadSources;
  governance: GovernanceGate;
  /** The validation engine and policy ports a release is evaluated with (its preview evaluates the same way). */
  evaluation: ReleaseEvaluationDeps;
}

export interface ReleaseCreateInput {
  environment: string;
  tenantId: string;
  title: string;
  changes?: WorkloadChange[];
}

/** A release row with its project, as `found` reads them. */
export interface FoundRelease {
  row: ReleaseRow;
  project: Project;
}

export type ReleaseService = ReturnType<typeof createReleaseService>;

/** The body a key stands for: the same key with another body is refused (422), never applied. */
function requestHash(slug: string, input: ReleaseCreateInput): string {
  const canonical = {
    project: slug,
    environment: input.environment,
    tenantId: input.tenantId.toLowerCase(),
    title: input.title,
    changes: (input.changes ?? []).map((c) => ({
      workload: c.workload,
      tag: c.tag ?? null,
      ...(c.chartVersion !== undefined ? { chartVersion: c.chartVersion } : {}),
      replicas: c.replicas ?? null,
      variables: c.variables ? Object.entries(c.variables).sort(([a], [b]) => (a < b ? -1 : 1)) : null,
    })),
  };
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/** What a new release row is made of (a rollback is a release of kind `rollback` that names the one it restores). */
export interface NewReleaseSpec {
  project: Project;
  tenant: ProjectTenant;
  environment: string;
  title: string;
  changes: WorkloadChange[];
  key: string | null;
  hash: string | null;
  kind: ReleaseKind;
  rollbackOf: string | null;
  /** What it moves, current -> proposed (recorded in the row: the inbox and the approval notification name them). */
  versions: ReleaseVersion[];
  /** Added to the creation's audit entries: the break-glass session it ran under, what a rollback restores. */
  details?: Record<string, unknown>;
}

/**
 * Releases: the row and its workflow (id in the row; created together: the row first, the workflow right after, a
 * reconciler for a crash between them), reads from the row, and human actions as Updates of the workflow.
 */
export function createReleaseService(deps: ReleaseServiceDeps) {
  const { db, audit, temporal } = deps;
  const { rollbackPlan } = createRollbackPlanner(deps);
  const releaseOf = scopedLookup(
    deps,
    { table: 'releases', column: 'id', resourceType: 'release', category: 'deployment', parse: uuidKey },
    findRelease,
  );

  async function ensureWorkflow(row: ReleaseRow, requester: ReturnType<typeof auditActor>): Promise<void> {
    await deps.workflows.start(releaseWorkflowType, {
      workflowId: row.workflow_id,
      args: [
        {
          releaseId: row.id,
          organizationId: row.organization_id,
          projectId: row.project_id,
          tenantId: row.tenant_id,
          environment: row.environment,
          requester,
          gitTaskQueue: taskQueue(deps.taskQueuePrefix, 'git'),
          timing: deps.timing,
        },
      ],
      labels: {
        organizationId: row.organization_id,
        projectId: row.project_id,
        tenantId: row.tenant_id,
        tenantSlug: row.tenant_slug,
        environment: row.environment,
      },
      searchAttributes: [
        { key: SEARCH_ATTRIBUTES.releaseId, value: row.id },
        { key: SEARCH_ATTRIBUTES.resourceStatus, value: 'Validating' },
      ],
      summary: `release ${row.title}`,
      details: `Release \`${row.id}\` (API: \`GET /api/v2/releases/${row.id}\`)`,
    });
    await markReleaseWorkflowStarted(db, row.id);
  }

  async function projectOfRow(row: ReleaseRow): Promise<Project> {
    const project = await findProjectById(db, row.organization_id, row.project_id);
    if (!project) throw new NotFound('release not found');
    return project;
  }

  /** The release as the API shows it; `created`: a row this request just inserted (no decisions to read yet). */
  async function detail(row: ReleaseRow, known?: Project, created = false) {
    const project = known ?? (await projectOfRow(row));
    const ui = workflowLink(deps.temporalUiUrl, deps.namespace, row.workflow_id);
    const progress = await awaitedProgress(db, {
      projectId: row.project_id,
      tenantId: row.tenant_id,
      environment: row.environment,
      revision: row.commit_sha,
      syncing: HOLDING_STATUSES.includes(row.status),
    });
    const links = { workflow: ui, history: `/api/v2/releases/${row.id}/history` };
    const decisions = created ? [] : await listDecisions(db, row.id);
    return { ...releaseDetail(row, project.slug, decisions, links, progress.latest), waitingFor: progress.waiting };
  }

  /** Sends one Update to the release's workflow; a refusal becomes the HTTP answer, the row the body. */
  async function act<T>(
    caller: OrgCaller,
    id: string,
    send: (handle: ReturnType<Client['workflow']['getHandle']>) => Promise<T>,
  ) {
    const row = await releaseOf(caller, id);
    try {
      await send(temporal.workflow.getHandle(row.workflow_id));
    } catch (err) {
      throw releaseUpdateError(err, row.status);
    }
    return detail((await findRelease(db, caller.organizationId, row.id)) ?? row);
  }

  /**
   * One rollback of a target at a time, checked under the target's lock in the inserting transaction: a second one,
   * sent while the first is queued, would restore the version the first is rolling back.
   */
  async function refuseSecondRollback(trx: Tx, projectId: string, tenant: { id: string; slug: string }, env: string) {
    const target = { project_id: projectId, tenant_id: tenant.id, environment: env };
    await lockTarget(trx, target);
    const running = await unfinishedRollback(trx, target);
    if (running) {
      throw new Conflict(
        `a rollback of ${tenant.slug}/${env} is already in progress (release ${running.id}, ${running.status})`,
      );
    }
  }

  /**
   * Inserts the release row with its `release.create` audit entry and event (a rollback also `rollback.initiate`) in
   * one transaction, then starts its workflow.
   */
  async function start(caller: OrgCaller, spec: NewReleaseSpec): Promise<ReleaseRow> {
    const { project, tenant, environment, changes } = spec;
    const id = randomUUID();
    const requester = auditActor(caller);
    let row: ReleaseRow;
    try {
      row = await db.transaction(async (trx) => {
        if (spec.kind === 'rollback') await refuseSecondRollback(trx, project.id, tenant, environment);
        const inserted = await insertRelease(trx, {
          id,
          organization_id: caller.organizationId,
          project_id: project.id,
          tenant_id: tenant.id,
          tenant_slug: tenant.slug,
          environment,
          title: spec.title,
          changes,
          workflow_id: releaseWorkflowId(id, {
            project: project.slug,
            tenant: tenant.slug,
            environment,
            kind: spec.kind,
          }),
          created_by: caller.principal.userId,
          created_by_actor: requester.actor,
          idempotency_key: spec.key,
          request_hash: spec.hash,
          kind: spec.kind,
          rollback_of: spec.rollbackOf,
          versions: spec.versions,
        });
        const details = {
          environment,
          tenant: tenant.slug,
          title: spec.title,
          changes,
          ...versionFacts(spec.versions),
          ...spec.details,
        };
        const entry = (action: string, extra: Record<string, unknown> = {}) =>
          audit.append(
            trx,
            orgEntry(caller, {
              action,
              category: 'deployment',
              projectId: project.id,
              tenantId: tenant.id,
              resourceType: 'release',
              resourceId: id,
              workflowId: inserted.workflow_id,
              details: { ...details, ...extra },
            }),
          );
        for (const record of creationRecords(spec.kind, spec.rollbackOf)) {
          const written = await entry(record.action, record.extra);
          await recordDomainEvent(trx, {
            organizationId: caller.organizationId,
            projectId: project.id,
            type: record.event,
            payload: { releaseId: id, tenantId: tenant.id, ...details, ...record.extra, auditId: written.id },
          });
        }
        return inserted;
      });
    } catch (err) {
      if (spec.key !== null && isUniqueViolation(err)) {
        throw new Conflict('a request with this Idempotency-Key is still in progress; retry it');
      }
      throw err;
    }
    // A crash here leaves a row without its workflow: the reconciler starts it.
    await ensureWorkflow(row, requester);
    return row;
  }

  /** Refuses (409, naming the freezes) an action on a frozen target unless the caller's break-glass covers it. */
  async function refuseFrozen(
    caller: OrgCaller,
    target: { projectId: string; environment: string; tenant: string },
    action: GovernedAction,
  ): Promise<BreakGlassGrant | null> {
    const verdict = await deps.governance.check(
      db,
      {
        organizationId: caller.organizationId,
        projectId: target.projectId,
        environment: target.environment,
        tenants: [target.tenant],
      },
      action,
      caller.principal.userId,
    );
    return grantOf(target, verdict);
  }

  /** refuseFrozen of a verdict the caller read: the break-glass session covering the target, or null. */
  function grantOf(target: { environment: string; tenant: string }, verdict: GateVerdict): BreakGlassGrant | null {
    if (verdict.blocked)
      throw new Conflict(`${target.tenant}/${target.environment} is ${frozenMessage(verdict.freezes)}`);
    // The caller's break-glass session covering the target: the entries of what they start carry it (spec).
    return verdict.breakGlass;
  }

  async function approverOf(caller: OrgCaller) {
    const userId = caller.principal.userId;
    if (userId === null) throw new Forbidden('approvals are given by people: sign in as a user');
    return approverProfile(db, caller.organizationId, userId);
  }

  return {
    /**
     * Creates the release and starts its workflow. With an Idempotency-Key, a retry with the same body returns the
     * same release (created false), another body under the same key answers 422, and a concurrent first request
     * still in flight answers 409.
     */
    async create(caller: OrgCaller, slug: string, input: ReleaseCreateInput, key: string | undefined) {
      if (key !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(key)) {
        throw new InvalidInput('Idempotency-Key must be 1 to 128 of A-Z a-z 0-9 _ -');
      }
      const project = await deps.projects.projectOf(caller, slug);
      const hash = requestHash(project.slug, input);
      if (key !== undefined) {
        const existing = await findReleaseByKey(db, caller.organizationId, key);
        if (existing) {
          if (existing.request_hash !== hash) {
            throw new Unprocessable('this Idempotency-Key was used with a different request body');
          }
          if (!existing.workflow_started_at) await ensureWorkflow(existing, auditActor(caller));
          return { release: await detail(existing), created: false };
        }
      }
      if (project.archived) throw new Conflict('the project is archived');
      // The project (its changed workloads) and the freezes and break-glass sessions that govern it in one statement;
      // the target checked against what it holds, then its freezes (issue 46: the create call's round trips).
      const gate = deps.governance.readsFor(
        db,
        { organizationId: caller.organizationId, projectId: project.id },
        caller.principal.userId,
      );
      const read = await loadProjectWith(
        db,
        {
          organizationId: caller.organizationId,
          projectId: project.id,
          ctx: deps,
          workloadNames: requestedWorkloads(input),
        },
        gate.parts,
      );
      const loaded = read.loaded;
      if (!loaded) throw new NotFound('project not found');
      const { tenant, environment, changes } = releaseTarget(loaded, input);
      const [verdict] = deps.governance.verdictsFrom(
        gate,
        read.also,
        [{ environment, tenants: [tenant.slug] }],
        'release.deploy',
      );
      const grant = grantOf({ environment, tenant: tenant.slug }, verdict!);
      refuseBlockedByValidation(deps.evaluation.validation, loaded, { tenantSlug: tenant.slug, environment, changes });
      const row = await start(caller, {
        project,
        tenant,
        environment,
        title: input.title,
        changes,
        key: key ?? null,
        hash,
        kind: 'release',
        rollbackOf: null,
        versions: releaseVersions(loaded.model, tenant.slug, environment, changes),
        details: breakGlassDetails(grant),
      });
      return { release: await detail(row, project, true), created: true };
    },

    /** What creating the release would meet (validation, policies, approvals, freezes, pin), changing nothing. */
    preview(caller: OrgCaller, slug: string, input: ReleaseCreateInput) {
      return previewRelease(deps, caller, slug, input);
    },

    /**
     * What a rollback of the tenant and environment would commit (the release it restores, the versions now -> after
     * and the diff to it) and what it would meet first (freezes, approval policies, the release it queues behind).
     */
    async rollbackPreview(caller: OrgCaller, tenantId: string, environment: string, releaseId?: string) {
      const plan = await rollbackPlan(caller, tenantId, environment, releaseId);
      const gates = await rollbackGates(deps, caller, {
        projectId: plan.project.id,
        tenantId: plan.tenant.id,
        tenant: plan.tenant.slug,
        environment,
        autoDeploy: plan.project.policy.releases.autoDeploy,
      });
      return {
        rollbackTo: plan.point,
        tenant: plan.tenant.slug,
        environment,
        changes: plan.changes,
        ...plan.versions,
        counts: plan.diff.counts,
        targets: plan.diff.targets,
        ...gates,
      };
    },

    /**
     * Starts a rollback: a release of kind `rollback` with the restored values, through the approvals of its target
     * (unless break-glass); its commit pins the target (docs/promotions.md).
     */
    async rollback(
      caller: OrgCaller,
      tenantId: string,
      environment: string,
      body: { releaseId?: string; reason?: string },
    ) {
      const why = body.reason?.trim();
      if (!why) throw new InvalidInput('reason is required: say why you roll back (it is kept in the audit log)');
      const plan = await rollbackPlan(caller, tenantId, environment, body.releaseId);
      if (plan.project.archived) throw new Conflict('the project is archived');
      const grant = await refuseFrozen(
        caller,
        { projectId: plan.project.id, environment, tenant: plan.tenant.slug },
        'rollback',
      );
      const row = await start(caller, {
        project: plan.project,
        tenant: plan.tenant,
        environment,
        title: `Rollback to ${plan.point.title}: ${why}`.slice(0, 200),
        changes: plan.changes,
        key: null,
        hash: null,
        kind: 'rollback',
        rollbackOf: plan.point.releaseId,
        versions: plan.versions.versions.map(({ direction: _, ...v }) => v),
        details: {
          reason: why,
          rollbackTo: { commitSha: plan.point.commitSha, kind: plan.point.kind, sourceId: plan.point.sourceId },
          ...breakGlassDetails(grant),
        },
      });
      return detail(row);
    },

    async list(caller: OrgCaller, slug: string, filter: ReleaseFilter, page: PageRequest) {
      const project = await deps.projects.projectOf(caller, slug);
      const tenant = filter.tenantId ? await deps.tenants.inProject(caller, filter.tenantId, project.id) : null;
      if (filter.tenantId && !tenant) return { items: [], nextCursor: null };
      const scoped = tenant ? { ...filter, tenantId: tenant.id } : filter;
      const result = await listReleases(db, caller.organizationId, project.id, scoped, page);
      return { items: result.items.map((r) => releaseSummary(r, project.slug)), nextCursor: result.nextCursor };
    },

    /**
     * A release of the caller's organization with its project (404 for a missing id or another organization's): what
     * a by-id route checks the action on (`projects.{slug}.releases.*`) and a read answers from, read once a request.
     */
    async found(caller: OrgCaller, id: string): Promise<FoundRelease> {
      const row = await releaseOf(caller, id);
      return { row, project: await projectOfRow(row) };
    },

    /** The release as the API shows it. */
    view(found: FoundRelease) {
      return detail(found.row, found.project);
    },

    async approve(caller: OrgCaller, id: string, comment: string | undefined) {
      const approver = await approverOf(caller);
      return act(caller, id, (h) =>
        h.executeUpdate(approveReleaseUpdate, { args: [{ approver, actor: auditActor(caller), comment }] }),
      );
    },

    async reject(caller: OrgCaller, id: string, comment: string) {
      const approver = await approverOf(caller);
      return act(caller, id, (h) =>
        h.executeUpdate(rejectReleaseUpdate, { args: [{ approver, actor: auditActor(caller), comment }] }),
      );
    },

    async deploy(caller: OrgCaller, id: string) {
      const row = await releaseOf(caller, id);
      await refuseFrozen(
        caller,
        { projectId: row.project_id, environment: row.environment, tenant: row.tenant_slug },
        'release.deploy',
      );
      return act(caller, id, (h) => h.executeUpdate(deployReleaseUpdate, { args: [{ actor: auditActor(caller) }] }));
    },

    async cancel(caller: OrgCaller, id: string, reason: string | undefined) {
      return act(caller, id, (h) =>
        h.executeUpdate(cancelReleaseUpdate, { args: [{ actor: auditActor(caller), reason }] }),
      );
    },

    async reportSync(caller: OrgCaller, id: string, report: Omit<SyncReport, 'actor'>) {
      return act(caller, id, (h) =>
        h.executeUpdate(reportSyncUpdate, { args: [{ ...report, actor: auditActor(caller) }] }),
      );
    },

    /** A page of the workflow's history as a timeline of steps (newest first), beside the audit entries of the release. */
    async history(caller: OrgCaller, id: string, page: PageRequest) {
      const row = await releaseOf(caller, id);
      const read = (client: Client, workflowId: string) => workflowTimeline(client, workflowId, page, row.commit_sha);
      return { releaseId: row.id, ...(await rowHistory(deps, caller, row, 'release', read)) };
    },

    /** Starts the workflows release rows are missing (a crash between the row's commit and the start). */
    async reconcile(limit = 100): Promise<number> {
      return reconcileRows(
        (before, max) => listUnstartedReleases(db, before, max),
        (row) => ensureWorkflow(row, creatorOf(row)),
        limit,
      );
    },
  };
}
