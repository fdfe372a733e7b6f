import type { Db } from '../db/knex';
import { InvalidInput, NotFound, Unauthorized, Unprocessable } from '../errors';
import type { SecretBox } from '../identity/mfa/secret-box';
import { pairKey, pinnedPairs } from '../pins/pin-repository';
import { frozenMessage, type GovernanceGate } from '../governance/governance-verdict';
import { listProjectEnvironments } from '../projects/project-environment-repository';
import { findProjectById, projectRefsBySlug, type Project } from '../projects/project-repository';
import { listProjectTenants } from '../projects/project-tenant-repository';
import { tenantSlugsOf } from '../projects/tenant-ref';
import { findWorkload, workloadsUsingImage } from '../projects/workload-repository';
import type { ReleaseService } from '../releases/release-service';
import type { ImageCommitBatcher } from './image-commit-batcher';
import { claimTargets, markKey } from './image-mark-repository';
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
import { findRequest, finishRequest, forgetRequest, recordRequest } from './webhook-request-repository';
import { liveSecrets } from './webhook-secrets';
import { settingsOf, type WebhookSettingsRow } from './webhook-settings-repository';

export interface ImageUpdateHeaders {
  signature: string | undefined;
  timestamp: string | undefined;
}

type Pair = { tenant: string; environment: string };
export interface Skipped {
  workload?: string;
  tenant: string;
  environment: string;
  /** `pinned`, `frozen` (a freeze window or stop the line holds it), `superseded` (a newer signed tag won). */
  reason: string;
  detail?: string;
}

export type ImageUpdateService = ReturnType<typeof createImageUpdateService>;

const BAD_SIGNATURE = 'invalid or missing webhook signature';
/** Verified requests are kept this long (past the replay window) for their status URL. */
const KEEP_MS = 60 * 60_000;

/**
 * `POST /api/v1/webhooks/image-update`: both shapes, signature checked in constant time before anything in the body
 * is trusted, replay window, request hashes, filters, then the update itself: auto-update environments in one commit
 * through the one commit path (grouped with concurrent requests of the project), other environments as pending
 * releases, pinned targets skipped and frozen ones refused, each named.
 */
export function createImageUpdateService(deps: {
  db: Db;
  secrets: SecretBox;
  releases: Pick<ReleaseService, 'create'>;
  batcher: Pick<ImageCommitBatcher, 'submit'>;
  governance: GovernanceGate;
  replayWindowMs: number;
  commitWaitMs: number;
  /** Drops expired request hashes now and then. */
  purge: () => Promise<void>;
}) {
  const { db } = deps;

  /** The project whose secret (current, or rotated-out within its overlap) made this signature, or 401. */
  async function verify(mac: Buffer, bytes: Buffer, candidates: string[]): Promise<WebhookSettingsRow> {
    const rows = await settingsOf(db, candidates);
    const now = new Date();
    let found: WebhookSettingsRow | null = null;
    for (const row of rows.values()) {
      if (matchesAny(mac, liveSecrets(deps.secrets, row, now), bytes) && !found) found = row;
    }
    if (!found) throw new Unauthorized(BAD_SIGNATURE);
    return found;
  }

  async function candidatesOf(routing: ReturnType<typeof routingOf>) {
    if ('project' in routing)
      return { ids: (await projectRefsBySlug(db, routing.project)).map((p) => p.id), workloads: [] };
    const workloads = await workloadsUsingImage(db, routing.repositories);
    return { ids: [...new Set(workloads.map((w) => w.projectId))], workloads };
  }

  /** The workloads and tenant-and-environment pairs a verified request names; 404 for what the project lacks. */
  async function targetsOf(
    project: Project,
    payload: ShapeA | ShapeB,
    usingImage: { projectId: string; name: string }[],
  ) {
    const tenantRows = await listProjectTenants(db, project.organizationId, project.id);
    const tenantIds = new Map(tenantRows.map((t) => [t.slug, t.id]));
    const tenants = tenantRows.map((t) => t.slug);
    const envs = (await listProjectEnvironments(db, project.id)).map((e) => e.environment);
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
    const workload = await findWorkload(db, project.id, payload.workload);
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

  /** The update itself, once the request is verified, fresh, new and inside the filters. */
  async function apply(
    project: Project,
    settings: WebhookSettingsRow,
    payload: ShapeA | ShapeB,
    targets: { workloads: string[]; pairs: Pair[]; tenantIds: Map<string, string> },
    meta: { webhookId: string; requestId: string; signedAt: number; hash: string },
  ) {
    const skipped: Skipped[] = [];
    const pins = await pinnedPairs(db, project.id, targets.pairs);
    const unpinned = targets.pairs.filter((p) => {
      const pin = pins.get(pairKey(p.tenant, p.environment));
      if (pin) skipped.push({ ...p, reason: 'pinned', detail: pin.reason });
      return !pin;
    });
    // A frozen target is refused and named (no break-glass: the request comes from CI, not a person).
    const open: Pair[] = [];
    for (const p of unpinned) {
      const verdict = await deps.governance.check(
        db,
        {
          organizationId: project.organizationId,
          projectId: project.id,
          environment: p.environment,
          tenants: [p.tenant],
        },
        'images.update',
        null,
      );
      if (verdict.blocked) skipped.push({ ...p, reason: 'frozen', detail: frozenMessage(verdict.freezes) });
      else open.push(p);
    }
    const auto = new Set(settings.auto_update_environments);
    const committed = open.filter((p) => auto.has(p.environment));
    const released = open.filter((p) => !auto.has(p.environment));

    const marks = targets.workloads.flatMap((workload) =>
      committed.map((p) => ({ workload, ...p, tag: payload.tag, signedAt: new Date(meta.signedAt) })),
    );
    const won = await claimTargets(db, project.id, marks);
    for (const m of marks) {
      if (!won.has(markKey(m)))
        skipped.push({ workload: m.workload, tenant: m.tenant, environment: m.environment, reason: 'superseded' });
    }
    const updates = targets.workloads
      .map((workload) => ({
        workload,
        tag: payload.tag,
        requestId: meta.requestId,
        pairs: committed.filter((p) => won.has(markKey({ workload, ...p }))),
      }))
      .filter((u) => u.pairs.length > 0);

    const releases = [];
    const caller = systemCaller(SUBSYSTEM.imageWebhook, project.organizationId, meta.requestId);
    for (const p of released) {
      const { release } = await deps.releases.create(
        caller,
        project.slug,
        {
          environment: p.environment,
          tenantId: targets.tenantIds.get(p.tenant) as string,
          title: `Image ${payload.tag} via webhook`,
          changes: targets.workloads.map((workload) => ({ workload, tag: payload.tag })),
        },
        `webhook-${meta.hash.slice(0, 40)}-${p.tenant}-${p.environment}`,
      );
      releases.push({ id: release.id, tenant: p.tenant, environment: p.environment, status: release.status });
    }

    const base = {
      requestId: meta.webhookId,
      project: project.slug,
      tag: payload.tag,
      updated: updates.flatMap((u) => u.pairs.map((p) => ({ workload: u.workload, ...p, tag: u.tag }))),
      releases,
      skipped,
    };
    if (updates.length === 0) {
      const result = { ...base, status: 'accepted', commit: null };
      await finishRequest(db, meta.webhookId, { status: 'committed', result });
      return { status: 200, body: result };
    }
    const commit = deps.batcher.submit(project, meta.requestId, meta.signedAt, updates).then(
      async (outcome) => {
        const superseded = outcome.superseded.map((s) => ({ ...s, reason: 'superseded' }));
        const lost = new Set(superseded.map((s) => `${s.workload}/${s.tenant}/${s.environment}`));
        const result = {
          ...base,
          status: outcome.sha ? 'committed' : 'accepted',
          commit: outcome.sha,
          updated: base.updated.filter((u) => !lost.has(`${u.workload}/${u.tenant}/${u.environment}`)),
          skipped: [...skipped, ...superseded],
        };
        await finishRequest(db, meta.webhookId, { status: 'committed', commitSha: outcome.sha, result });
        return result;
      },
      async (err: unknown) => {
        await finishRequest(db, meta.webhookId, { status: 'failed', result: { ...base, status: 'failed' } });
        throw err;
      },
    );
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), deps.commitWaitMs);
    });
    const first = await Promise.race([commit, late]).finally(() => clearTimeout(timer));
    if (first) return { status: 200, body: first };
    // Still committing: the commit goes on; the sender polls the status URL.
    commit.catch(() => undefined);
    const statusUrl = `/api/v1/webhooks/image-update/requests/${meta.webhookId}`;
    return { status: 202, body: { ...base, status: 'queued', commit: null, statusUrl } };
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
      const settings = await verify(mac, bytes, candidates.ids);

      const payload =
        shape === 'A' ? parseShapeA(body as Record<string, unknown>) : parseShapeB(body as Record<string, unknown>);
      const signedAt = payload.shape === 'A' ? (seconds as number) * 1000 : Date.parse(payload.timestamp);
      if (!withinWindow(signedAt, Date.now(), deps.replayWindowMs)) {
        throw new Unauthorized('request timestamp outside the 5-minute window');
      }
      const project = await findProjectById(db, settings.organization_id, settings.project_id);
      if (!project) throw new NotFound('project not found');
      // An archived project takes no updates (its repository is read-only to the commit path).
      if (project.archived) throw new NotFound('project is archived');
      await deps.purge();
      const hash = requestHash(Buffer.concat([Buffer.from(shape), bytes]));
      const webhookId = await recordRequest(db, {
        kind: 'image-update',
        request_hash: hash,
        organization_id: project.organizationId,
        project_id: project.id,
        expiresAt: new Date(Date.now() + Math.max(KEEP_MS, 2 * deps.replayWindowMs)),
      });
      try {
        const image = payload.shape === 'A' ? payload.repository : payload.image;
        if (!passes(settings.image_filter, image))
          throw new Unprocessable('image does not match the configured image filter');
        if (!passes(settings.tag_filter, payload.tag))
          throw new Unprocessable('tag does not match the configured tag filter');
        const targets = await targetsOf(project, payload, candidates.workloads);
        return await apply(project, settings, payload, targets, { webhookId, requestId, signedAt, hash });
      } catch (err) {
        // A refusal stays recorded (the same request again is a replay); a fault inside the platform does not.
        if (!(err instanceof InvalidInput || err instanceof NotFound || err instanceof Unprocessable)) {
          await forgetRequest(db, webhookId).catch(() => undefined);
        }
        throw err;
      }
    },

    /** The status URL of a request that answered 202 (its id is random; it tells only the outcome). */
    async status(id: string) {
      const row = await findRequest(db, 'image-update', id);
      if (!row) throw new NotFound('webhook request not found');
      return { requestId: row.id, status: row.status, commit: row.commit_sha, result: row.result };
    },
  };
}
