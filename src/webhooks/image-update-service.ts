// Over 400 lines: the signed image-update webhook's one path, from signature verification through targets and freezes
// to the commit hand-over and the status a CI polls, in one closure over the webhook's dependencies.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/knex';
import { Conflict, InvalidInput, NotFound, Unauthorized, Unprocessable } from '../errors';
import type { SecretBox } from '../identity/mfa/secret-box';
import { pinRows } from '../pins/pin-repository';
import type { GateVerdict, GovernanceGate } from '../governance/governance-verdict';
import { readRows, readTogether } from '../db/rows-together';
import { projectEnvironmentRows } from '../projects/project-environment-repository';
import { projectRows, projectsBySlug, type Project } from '../projects/project-repository';
import { projectTenantRows } from '../projects/project-tenant-repository';
import { tenantSlugsOf } from '../projects/tenant-ref';
import { workloadRows, workloadsUsingImage, workloadsUsingImageRows } from '../projects/workload-repository';
import { rolloutPlanRows, type StoredPlan } from '../rollouts/rollout-plan-repository';
import type { ReleaseService } from '../releases/release-service';
import type { RolloutService, RolloutView } from '../rollouts/rollout-service';
import { rolloutLinks } from '../rollouts/rollout-view';
import { routeTargets, updatesOf, type Routed } from './image-update-routing';
import type { WorkflowStarter } from '../temporal/start-workflow';
import { overrideOf, type ImageUpdate } from '../gitops/image-operation';
import type { QueuedImageUpdate } from './image-update-batch';
import { imageUpdateSignal, imageUpdatesWorkflowId, imageUpdatesWorkflowType } from './image-update-workflow-contract';
import {
  imageMatches,
  isShapeABody,
  parseShapeA,
  parseShapeB,
  routingOf,
  type ShapeA,
  type ShapeB,
} from './image-update-payload';
import { matchesAny, parseSignature, parseUnixSeconds, requestHash, signedBytes, withinWindow } from './signature';
import { parseStrictJson } from './strict-json';
import { SUBSYSTEM } from '../iam/subsystems';
import { systemCaller } from '../iam/system-caller';
import { passes } from './webhook-filters';
import {
  claimRequest,
  findRequest,
  finishRequest,
  finishUnstagedRequest,
  markQueued,
  stageWork,
  unfinishedRequests,
  type WebhookRequestRow,
} from './webhook-request-repository';
import { duplicateRequest } from './duplicate-request';
import { createRequestOutcomeWatcher } from './request-outcome-watcher';
import type { DirectImageCommits } from './direct-image-commits';
import type { PgNotifications } from '../db/pg-notifications';
import { liveSecrets } from './webhook-secrets';
import { settingsRows, type WebhookSettingsRow } from './webhook-settings-repository';

export interface ImageUpdateHeaders {
  signature: string | undefined;
  timestamp: string | undefined;
}

type Pair = { tenant: string; environment: string };
type ProjectRef = { organizationId: string; projectId: string };
type Payload = Pick<ShapeA | ShapeB, 'tag'> & Pick<ImageUpdate, 'field'>;
type Targets = { workloads: string[]; pairs: Pair[]; tenantIds: Map<string, string> };
type Meta = { webhookId: string; requestId: string; signedAt: number; hash: string };

export type ImageUpdateService = ReturnType<typeof createImageUpdateService>;

const BAD_SIGNATURE = 'invalid or missing webhook signature';
/** Verified requests are kept this long (past the replay window) for their status URL. */
const KEEP_MS = 60 * 60_000;
const NOT_PROCESSED = 'not processed (a fault inside the platform): sign the request again to retry it';
const statusUrlOf = (id: string) => `/api/v1/webhooks/image-update/requests/${id}`;

/**
 * What a request that ended before it staged any work records: a refusal as such, a fault inside the platform as not
 * processed (the sender signs the request again to retry it).
 */
function failureOf(err: unknown) {
  const refused = err instanceof InvalidInput || err instanceof NotFound || err instanceof Unprocessable;
  return refused ? { status: 'refused', error: (err as Error).message } : { status: 'failed', error: NOT_PROCESSED };
}

/**
 * `POST /api/v1/webhooks/image-update`: both shapes, signature checked in constant time before anything in the body
 * is trusted, replay window, request hashes, filters, then the update itself: auto-update environments in one commit
 * (staged first, then committed by this process or else the project's image-update workflow, grouped with concurrent
 * requests), other environments as pending releases, pinned targets skipped and frozen ones refused, each named.
 */
export function createImageUpdateService(deps: {
  db: Db;
  secrets: SecretBox;
  releases: Pick<ReleaseService, 'create'>;
  /** Auto-update environments with a rollout plan move in its waves (image rollouts). */
  rollouts: Pick<RolloutService, 'forImageUpdate'>;
  /** Starts (or signals) the project's image-update workflow. */
  workflows: Pick<WorkflowStarter, 'signalWithStart'>;
  gitTaskQueue: string;
  /** How long the workflow's commits wait out a Git storage outage (GIT_COMMIT_PATIENCE). */
  commitPatienceMs: number;
  /** Commits in this process (WEBHOOK_DIRECT_COMMIT); null: every request goes to the workflow. */
  direct: DirectImageCommits | null;
  governance: GovernanceGate;
  replayWindowMs: number;
  commitWaitMs: number;
  pgNotifications: PgNotifications;
  /** Drops expired request hashes now and then. */
  purge: () => Promise<void>;
}) {
  const { db } = deps;
  const outcomes = createRequestOutcomeWatcher(db, deps.pgNotifications);

  /** The project whose secret (current, or rotated-out within its overlap) made this signature, or 401. */
  function verify(mac: Buffer, bytes: Buffer, candidates: WebhookSettingsRow[]): WebhookSettingsRow {
    const now = new Date();
    let found: WebhookSettingsRow | null = null;
    for (const row of candidates) {
      if (matchesAny(mac, liveSecrets(deps.secrets, row, now), bytes) && !found) found = row;
    }
    if (!found) throw new Unauthorized(BAD_SIGNATURE);
    return found;
  }

  /** The projects a request's routing names, with their webhook settings (whose secrets to try), in one statement. */
  function candidatesOf(routing: ReturnType<typeof routingOf>) {
    if ('project' in routing) {
      return readRows(settingsRows(db, projectsBySlug(db, routing.project).select('id'))).then((settings) => ({
        settings,
        workloads: [],
      }));
    }
    return readTogether(db, {
      workloads: workloadsUsingImageRows(db, routing.repositories),
      settings: settingsRows(db, workloadsUsingImage(db, routing.repositories).select('project_id')),
    });
  }

  /**
   * What an update of the project reads before it is claimed and planned, in one statement (issue 46: five fewer a
   * request): the project, its tenants and environments, the workload a shape B request names, the project's pins
   * and rollout plans, and the governance gate's rows (the freezes in force, for an update without an actor).
   */
  async function projectContext(ref: ProjectRef, workload?: string) {
    const gate = deps.governance.readsFor(db, ref, null);
    const read = await readTogether(db, {
      project: projectRows(db, ref.organizationId, ref.projectId),
      tenants: projectTenantRows(db, ref.organizationId, ref.projectId),
      environments: projectEnvironmentRows(db, ref.projectId),
      workloads: workloadRows(db, ref.projectId, workload === undefined ? [] : [workload]),
      pins: pinRows(db, ref.projectId),
      plans: rolloutPlanRows(db, ref.organizationId, ref.projectId),
      ...gate.parts,
    });
    return {
      ...read,
      project: read.project[0] ?? null,
      verdicts: (pairs: Pair[]): GateVerdict[] =>
        deps.governance.verdictsFrom(
          gate,
          read,
          pairs.map((p) => ({ environment: p.environment, tenants: [p.tenant] })),
          'images.update',
        ),
    };
  }
  type Context = Awaited<ReturnType<typeof projectContext>> & { project: Project };

  /** The workloads and tenant-and-environment pairs a verified request names; 404 for what the project lacks. */
  function targetsOf(context: Context, payload: ShapeA | ShapeB, usingImage: { projectId: string; name: string }[]) {
    const { project, tenants: tenantRows, environments } = context;
    const tenantIds = new Map(tenantRows.map((t) => [t.slug, t.id]));
    const tenants = tenantRows.map((t) => t.slug);
    const envs = environments.map((e) => e.environment);
    if (payload.shape === 'A') {
      const workloads = usingImage
        .filter((w) => w.projectId === project.id)
        .map((w) => w.name)
        .sort();
      if (workloads.length === 0) throw new NotFound('no workload of the project uses this repository');
      return {
        workloads,
        tenantIds,
        pairs: tenants.flatMap((tenant) => envs.map((environment) => ({ tenant, environment }))),
      };
    }
    const [workload] = context.workloads;
    if (!workload) throw new NotFound(`workload ${payload.workload} not found`);
    if (!imageMatches(payload.image, workload.image.repository)) {
      throw new Unprocessable(`image does not match the repository of workload ${payload.workload}`);
    }
    const unknownEnv = payload.environments.filter((e) => !envs.includes(e));
    if (unknownEnv.length > 0) throw new NotFound(`environment not found: ${unknownEnv.join(', ')}`);
    const wanted = payload.tenants.includes('*') ? tenants : tenantSlugsOf(tenantRows, payload.tenants);
    const unknownTenant = wanted.filter((t) => !tenants.includes(t));
    if (unknownTenant.length > 0) throw new NotFound(`tenant not found: ${unknownTenant.join(', ')}`);
    return {
      workloads: [workload.name],
      tenantIds,
      pairs: wanted.flatMap((tenant) => payload.environments.map((environment) => ({ tenant, environment }))),
    };
  }

  /** The answer so far (`updated`, `releases`, `skipped`, and `rollouts` when a plan took pairs). */
  function answerBody(
    project: Project,
    meta: { webhookId: string; tag: string },
    updates: ImageUpdate[],
    routed: Routed,
    releases: { id: string; tenant: string; environment: string; status: string }[] = [],
    rollouts: (RolloutView & { workload: string })[] = [],
  ) {
    return {
      requestId: meta.webhookId,
      project: project.slug,
      tag: meta.tag,
      updated: updates.flatMap((u) =>
        u.pairs.map((p) => ({ workload: u.workload, ...p, tag: u.tag, ...(u.field ? { field: u.field } : {}) })),
      ),
      releases,
      skipped: routed.skipped,
      // Present when an environment's rollout plan took pairs (docs/rollouts.md): its waves commit them, not this request.
      ...(rollouts.length > 0
        ? {
            rollouts: rollouts.map((r) => ({
              rolloutId: r.id,
              environment: r.environment,
              workload: r.workload,
              status: r.status,
              links: rolloutLinks(r.id),
            })),
          }
        : {}),
    };
  }

  /**
   * What a request that only commits records when it is claimed (issue 46: the claim and the outbox in one
   * statement): its work and the answer so far, or, when every target was skipped, its final answer.
   */
  function outboxOf(project: Project, routed: Routed, payload: Payload, targets: Targets, meta: Meta) {
    const updates = updatesOf(targets.workloads, routed.autoPairs, payload, meta.requestId);
    const base = answerBody(project, { webhookId: meta.webhookId, tag: payload.tag }, updates, routed);
    if (updates.length === 0)
      return { status: 'committed' as const, result: { ...base, status: 'accepted', commit: null } };
    const work: QueuedImageUpdate = {
      webhookId: meta.webhookId,
      requestId: meta.requestId,
      signedAt: meta.signedAt,
      updates,
    };
    return { status: 'received' as const, work, result: { ...base, status: 'queued', commit: null } };
  }

  /**
   * The update of a claimed request that starts more than its commit (issue 46 keeps it after the claim): the image
   * rollouts of the auto-update environments with a plan, each its id derived from this request's row (a resend or
   * re-plan starts nothing twice), and a pending release per target of the other environments; then its outbox.
   */
  async function startAndStage(
    project: Project,
    plans: StoredPlan[],
    routed: Routed,
    payload: Payload,
    targets: Targets,
    meta: Meta,
  ) {
    const caller = systemCaller(SUBSYSTEM.imageWebhook, project.organizationId, meta.requestId);
    const planned = routed.planned
      ? await deps.rollouts.forImageUpdate(
          caller,
          project,
          { workloads: targets.workloads, tag: payload.tag, pairs: routed.autoPairs },
          meta.webhookId,
          plans,
        )
      : { rollouts: [], rest: routed.autoPairs };
    const updates = updatesOf(targets.workloads, planned.rest, payload, meta.requestId);
    const releases = [];
    for (const p of routed.released) {
      const { release } = await deps.releases.create(
        caller,
        project.slug,
        {
          environment: p.environment,
          tenantId: targets.tenantIds.get(p.tenant) as string,
          title: `${payload.field === 'chart' ? 'Chart' : 'Image'} ${payload.tag} via webhook`,
          changes: targets.workloads.map((workload) => ({ workload, ...overrideOf(payload) })),
        },
        `webhook-${meta.hash.slice(0, 40)}-${p.tenant}-${p.environment}`,
      );
      releases.push({ id: release.id, tenant: p.tenant, environment: p.environment, status: release.status });
    }
    const base = answerBody(
      project,
      { webhookId: meta.webhookId, tag: payload.tag },
      updates,
      routed,
      releases,
      planned.rollouts,
    );
    if (updates.length === 0) {
      const result = { ...base, status: 'accepted', commit: null };
      await finishRequest(db, meta.webhookId, { status: 'committed', result });
      return { status: 200, body: result };
    }
    const work: QueuedImageUpdate = {
      webhookId: meta.webhookId,
      requestId: meta.requestId,
      signedAt: meta.signedAt,
      updates,
    };
    // The outbox: the answer so far and the work, durable before anything commits and before the sender is answered.
    await stageWork(db, meta.webhookId, work, { ...base, status: 'queued', commit: null });
    return commitStaged(project, work);
  }

  /** Commits a staged request: here, and what did not land through the project's workflow. */
  async function commitStaged(project: Project, entry: QueuedImageUpdate) {
    const target = { organizationId: project.organizationId, projectId: project.id };
    if (!deps.direct) {
      await handOver(target.organizationId, target.projectId, entry);
      return answerOf(entry.webhookId);
    }
    // Committed here; what did not land goes to the project's workflow. The answer waits for either (answerOf).
    void deps.direct
      .commit(target, entry)
      .then((landed) => landed || handOver(target.organizationId, target.projectId, entry))
      // handOver answers false rather than throw; nothing here may end the process (the reconciler has the row).
      .catch(() => undefined);
    const answer = await answerOf(entry.webhookId);
    // Not committed within the wait: Temporal has the work before the sender is told it is queued (the commit here
    // may still land first; the workflow then finds the request finished).
    if (answer.status === 202) await handOver(target.organizationId, target.projectId, entry);
    return answer;
  }

  /**
   * Hands a staged request to its project's workflow (signal-with-start); `queued` once Temporal has it. When Temporal
   * cannot be reached the request stays staged: the worker's reconciler hands it over later (handOverStaged).
   */
  async function handOver(organizationId: string, projectId: string, entry: QueuedImageUpdate): Promise<boolean> {
    try {
      await deps.workflows.signalWithStart(imageUpdatesWorkflowType, {
        workflowId: imageUpdatesWorkflowId(projectId),
        args: [{ organizationId, projectId, gitTaskQueue: deps.gitTaskQueue, commitPatienceMs: deps.commitPatienceMs }],
        signal: imageUpdateSignal,
        signalArgs: [entry],
        labels: { organizationId, projectId },
        summary: 'image updates via webhook',
      });
      await markQueued(db, entry.webhookId);
    } catch {
      return false;
    }
    return true;
  }

  /**
   * The request's row once it is finished, or as it is after the commit wait. Work staged but not yet given to
   * Temporal (its process may have died between the outbox and the hand-over) is handed over first, so a resend or a
   * re-evaluation does not wait for the reconciler's turn; a second hand-over is harmless (the workflow and a direct
   * commit both skip a finished request).
   */
  async function settledWithin(row: WebhookRequestRow): Promise<WebhookRequestRow> {
    if (row.status === 'committed' || row.status === 'failed') return row;
    if (row.status === 'received' && row.work && row.project_id) {
      await handOver(row.organization_id, row.project_id, row.work as QueuedImageUpdate);
    }
    return (await outcomes.wait(row.id, deps.commitWaitMs)) ?? (await findRequest(db, 'image-update', row.id)) ?? row;
  }

  /** 200 with the outcome when the workflow finishes the request within the commit wait, else 202 and the status URL. */
  async function answerOf(webhookId: string) {
    const row =
      (await outcomes.wait(webhookId, deps.commitWaitMs)) ?? (await findRequest(db, 'image-update', webhookId));
    const result = row?.result ?? {};
    if (row?.status === 'failed') throw new Conflict(`image update failed: ${String(result.error ?? 'commit failed')}`);
    if (row?.status === 'committed') return { status: 200, body: result };
    return { status: 202, body: { ...result, status: 'queued', commit: null, statusUrl: statusUrlOf(webhookId) } };
  }

  return {
    async receive(raw: Buffer, headers: ImageUpdateHeaders, requestId: string) {
      const mac = parseSignature(headers.signature);
      if (!mac) throw new Unauthorized(BAD_SIGNATURE);
      const shape = headers.timestamp === undefined ? 'B' : 'A';
      const seconds = shape === 'A' ? parseUnixSeconds(headers.timestamp) : null;
      if (shape === 'A' && seconds === null) throw new Unauthorized(BAD_SIGNATURE);
      const bytes = signedBytes(raw, shape === 'A' ? (headers.timestamp as string) : null);
      // The body is read for its routing field only (whose secrets to try); nothing in it counts before the MAC does.
      const body = parseStrictJson(raw.toString('utf8'));
      // Told apart by headers and fields: a shape A body without its timestamp header cannot be verified.
      if (shape === 'B' && isShapeABody(body)) throw new Unauthorized(BAD_SIGNATURE);
      const routing = routingOf(body, shape);
      const candidates = await candidatesOf(routing);
      const settings = verify(mac, bytes, candidates.settings);

      const payload =
        shape === 'A' ? parseShapeA(body as Record<string, unknown>) : parseShapeB(body as Record<string, unknown>);
      const signedAt = payload.shape === 'A' ? (seconds as number) * 1000 : Date.parse(payload.timestamp);
      if (!withinWindow(signedAt, Date.now(), deps.replayWindowMs)) {
        throw new Unauthorized('request timestamp outside the 5-minute window');
      }
      const ref = { organizationId: settings.organization_id, projectId: settings.project_id };
      const context = await projectContext(ref, payload.shape === 'B' ? payload.workload : undefined);
      const { project } = context;
      if (!project) throw new NotFound('project not found');
      // An archived project takes no updates (its repository is read-only to the commit path).
      if (project.archived) throw new NotFound('project is archived');
      await deps.purge();
      const hash = requestHash(Buffer.concat([Buffer.from(shape), bytes]));
      const meta = { webhookId: randomUUID(), requestId, signedAt, hash };
      // Routed before the claim (issue 46): a request that only commits is claimed with its work in one statement; a
      // refusal is claimed as such, so the same bytes again are told what became of them (the 409's outcome).
      let routed: { targets: Targets; routed: Routed } | null = null;
      let refusal: Error | null = null;
      try {
        const image = payload.shape === 'A' ? payload.repository : payload.image;
        if (!passes(settings.image_filter, image))
          throw new Unprocessable('image does not match the configured image filter');
        if (!passes(settings.tag_filter, payload.tag))
          throw new Unprocessable('tag does not match the configured tag filter');
        const targets = targetsOf({ ...context, project }, payload, candidates.workloads);
        routed = {
          targets,
          routed: routeTargets(context, settings.auto_update_environments, targets.pairs, undefined),
        };
      } catch (err) {
        refusal = err as Error;
      }
      const outbox =
        refusal !== null
          ? { status: 'failed' as const, result: failureOf(refusal) }
          : routed && !routed.routed.planned && routed.routed.released.length === 0
            ? outboxOf(project, routed.routed, payload, routed.targets, meta)
            : null;
      const { row, fresh } = await claimRequest(db, {
        id: meta.webhookId,
        kind: 'image-update',
        request_hash: hash,
        organization_id: project.organizationId,
        project_id: project.id,
        expiresAt: new Date(Date.now() + Math.max(KEEP_MS, 2 * deps.replayWindowMs)),
        ...(outbox ?? {}),
      });
      // The same bytes again (WH-3), answered or not: 409 with the first one's outcome, nothing done twice. A resend
      // while the first is still in progress (its sender gave up, or its API died) waits for that outcome as the first
      // would have (the commit wait), so the 409 carries the commit once it lands, not just "queued".
      if (!fresh) throw duplicateRequest(await settledWithin(row), statusUrlOf(row.id));
      if (refusal) throw refusal;
      if (outbox?.status === 'committed') return { status: 200, body: outbox.result };
      if (outbox?.status === 'received') return commitStaged(project, outbox.work);
      const { targets, routed: routes } = routed!;
      try {
        return await startAndStage(project, context.plans, routes, payload, targets, meta);
      } catch (err) {
        // Best effort: when the database itself failed, the row stays `received` and its resends say so.
        await finishUnstagedRequest(db, row.id, failureOf(err)).catch(() => undefined);
        throw err;
      }
    },

    /**
     * A version a watch subscription found (src/watch): the same governed path as a signed request, minus the
     * signature: recorded as an image-update request (a second call with the same `key` is a duplicate and answers the
     * first one's outcome, nothing done twice), pins skipped, freezes refused, one commit of the named environments.
     */
    async applyDiscovered(input: {
      organizationId: string;
      projectId: string;
      workload: string;
      /** What the workload's tag becomes (`tag@digest` under digest tracking), or its chart version (`field`). */
      tag: string;
      /** `chart`: `tag` is the chart version of a chart-based workload. */
      field?: 'chart';
      environments: string[];
      /** Tenant slugs; empty: every tenant of the project. */
      tenants: string[];
      /** Only these targets (a held update retried after its freeze), instead of environments x tenants. */
      pairs?: Pair[];
      /** Unique per discovery and subscription. */
      key: string;
      foundAt: Date;
      requestId: string;
    }): Promise<Record<string, unknown>> {
      const context = await projectContext(input);
      const { project, tenants: tenantRows, environments } = context;
      if (!project || project.archived) return { status: 'refused', error: 'project not found or archived' };
      const tenantIds = new Map(tenantRows.map((t) => [t.slug, t.id]));
      const envs = new Set(environments.map((e) => e.environment));
      const tenants = input.tenants.length > 0 ? input.tenants : tenantRows.map((t) => t.slug);
      const pairs = (
        input.pairs ?? tenants.flatMap((tenant) => input.environments.map((environment) => ({ tenant, environment })))
      ).filter((p) => tenantIds.has(p.tenant) && envs.has(p.environment));
      await deps.purge();
      const hash = requestHash(Buffer.from(`watch\0${input.key}`));
      const { row, fresh } = await claimRequest(db, {
        kind: 'image-update',
        request_hash: hash,
        organization_id: project.organizationId,
        project_id: project.id,
        expiresAt: new Date(Date.now() + KEEP_MS),
      });
      if (!fresh) {
        const settled = await settledWithin(row);
        // Claimed but never staged once the commit wait is over: its evaluator died between the two (a live one stages
        // within milliseconds). Planned again under the same row: every step is idempotent (the releases' keys, the
        // outbox row, commits that skip a finished request), so even a slow live evaluator finishing too changes nothing.
        if (settled.status !== 'received' || settled.work) return { ...(settled.result ?? {}), duplicate: true };
      }
      try {
        const routes = routeTargets(context, input.environments, pairs, input.field);
        const answer = await startAndStage(
          project,
          context.plans,
          routes,
          { tag: input.tag, ...(input.field ? { field: input.field } : {}) },
          { workloads: [input.workload], pairs, tenantIds },
          { webhookId: row.id, requestId: input.requestId, signedAt: input.foundAt.getTime(), hash },
        );
        return answer.body as Record<string, unknown>;
      } catch (err) {
        const result = { status: 'failed', error: err instanceof Error ? err.message : NOT_PROCESSED };
        await finishUnstagedRequest(db, row.id, result).catch(() => undefined);
        return result;
      }
    },

    /** The targets a freeze (or stop the line) still holds for image updates, of the ones given. */
    async frozenPairs(organizationId: string, projectId: string, pairs: Pair[]): Promise<Pair[]> {
      const targets = pairs.map((p) => ({ environment: p.environment, tenants: [p.tenant] }));
      const verdicts = await deps.governance.checkEach(
        db,
        { organizationId, projectId },
        targets,
        'images.update',
        null,
      );
      return pairs.filter((_, i) => verdicts[i]!.blocked);
    },

    /** Hands over what API processes staged but could not give to Temporal (run by the worker's reconciler). */
    async handOverStaged(olderThanMs: number): Promise<number> {
      const rows = await unfinishedRequests(db, 'image-update', new Date(Date.now() - olderThanMs), 100);
      let handed = 0;
      for (const r of rows) {
        if (await handOver(r.organization_id, r.project_id as string, r.work as QueuedImageUpdate)) handed += 1;
      }
      return handed;
    },

    /** The status URL of a request that answered 202 (its id is random; it tells only the outcome). */
    async status(id: string) {
      const row = await findRequest(db, 'image-update', id);
      if (!row) throw new NotFound('webhook request not found');
      // What its commit waits out, only while it does: a finished request waits for nothing.
      const waiting = row.status === 'received' || row.status === 'queued' ? row.waiting : null;
      return { requestId: row.id, status: row.status, commit: row.commit_sha, result: row.result, waiting };
    },
  };
}
