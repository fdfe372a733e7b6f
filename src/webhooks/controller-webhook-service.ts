import { createHash, randomBytes } from 'node:crypto';
import type { AuditService } from '../audit/audit-service';
import type { Db } from '../db/knex';
import { Conflict, InvalidInput, NotFound, Unauthorized } from '../errors';
import { parseApplicationName } from '../delivery-layout/application-name';
import { orgEntry, type OrgCaller } from '../iam/caller';
import { findProjectEnvironment } from '../projects/project-environment-repository';
import { findProjectBySlug } from '../projects/project-repository';
import type { ProjectService } from '../projects/project-service';
import { listProjectTenants } from '../projects/project-tenant-repository';
import { findWorkload, listWorkloads } from '../projects/workload-repository';
import type { ReleaseService } from '../releases/release-service';
import { waiterForTarget } from '../releases/revision-waiters';
import type { SyncReport } from '../deployments/sync-report';
import { positionOf } from '../deployments/deployed-state-repository';
import { lockDeployedTarget, recordReport } from '../deployments/report-state';
import { liftPinsVerifiedUpstream } from '../rollouts/pin-lifting';
import { awaitedVerdict, CONTROLLER_ACTOR, syncReportOf } from '../deployments/sync-verdict';
import type { PromotionService } from '../promotions/promotion-service';
import { parseControllerEvent } from './controller-payload';
import { organizationOfToken, replaceToken, tokenState } from './controller-token-repository';
import { recordStatus, statusesOf } from './deployment-status-repository';
import { requestHash, withinWindow } from './signature';
import { parseStrictJson } from './strict-json';
import { SUBSYSTEM } from '../iam/subsystems';
import { systemCaller } from '../iam/system-caller';
import {
  claimRequest,
  finishRequest,
  stageWork,
  unfinishedRequests,
  type WebhookRequestRow,
} from './webhook-request-repository';
import { duplicateRequest } from './duplicate-request';

const TOKEN = /^Bearer (cdc_[A-Za-z0-9_-]{43})$/;
const sha256 = (value: string) => createHash('sha256').update(value).digest();

export type ControllerWebhookService = ReturnType<typeof createControllerWebhookService>;

/**
 * `POST /api/v1/webhooks/cdcontroller`: the continuous-delivery controller's sync status, authenticated by the
 * organization's controller token. The Application name gives project, tenant, environment and service; the status
 * is stored per service; the workflow waiting for that revision on that target (a release) is told once the target's
 * services agree: Healthy when all are Synced and Healthy, Failed as soon as one degrades.
 */
export function createControllerWebhookService(deps: {
  db: Db;
  audit: AuditService;
  releases: Pick<ReleaseService, 'reportSync'>;
  promotions: Pick<PromotionService, 'waitingFor' | 'reportSync' | 'sourceReported'>;
  projects: Pick<ProjectService, 'projectOf'>;
  replayWindowMs: number;
  tokenOverlapMs: number;
  purge: () => Promise<void>;
}) {
  const { db } = deps;

  async function organizationOf(authorization: string | undefined): Promise<string> {
    const match = authorization === undefined ? null : TOKEN.exec(authorization);
    if (!match) throw new Unauthorized('missing or invalid controller token');
    // Looked up by its SHA-256 (a 256-bit random token: the hash reveals nothing usable, KEY-1).
    const organizationId = await organizationOfToken(db, sha256(match[1]!).toString('hex'), new Date());
    if (!organizationId) throw new Unauthorized('missing or invalid controller token');
    return organizationId;
  }

  type Target = {
    organizationId: string;
    projectId: string;
    tenantId: string;
    tenant: string;
    environment: string;
  };
  type Told = { id: string; status: string };
  /** A stored report still to tell (the request row's `work`). */
  type StagedReport = {
    target: Target;
    revision: string;
    position: number | null;
    verified: boolean;
    answer: Record<string, unknown>;
  };

  /** Whether a report at `revision` (its place `position`, null: unknown) is about `commitSha` or a later commit. */
  async function covers(projectId: string, commitSha: string, revision: string, position: number | null) {
    if (commitSha === revision) return true;
    const awaited = await positionOf(db, projectId, commitSha);
    return awaited !== null && position !== null && awaited <= position;
  }

  /** What the Applications a commit changed say now, as a report for the workflow waiting on that commit. */
  async function verdictReport(target: Target, commitSha: string): Promise<SyncReport | null> {
    const verdict = await awaitedVerdict(db, {
      ...target,
      revision: commitSha,
      allServices: async () => (await listWorkloads(db, target.projectId)).map((w) => w.name),
    });
    return syncReportOf(verdict, commitSha, CONTROLLER_ACTOR);
  }

  /**
   * Tells the workflows waiting on the target what the reports say about their commit: the release holding the target
   * and the promotions moving the tenant there, when this report's revision is their commit or a later one. Returns
   * what the first one told answered (the release, else a promotion).
   */
  async function tell(caller: OrgCaller, target: Target, revision: string, position: number | null) {
    const told: Told[] = [];
    const release = await waiterForTarget(db, target);
    if (release && (await covers(target.projectId, release.commitSha, revision, position))) {
      const report = await verdictReport(target, release.commitSha);
      if (!report) told.push({ id: release.id, status: 'Syncing' });
      else {
        try {
          const result = await deps.releases.reportSync(caller, release.id, report);
          told.push({ id: result.id, status: result.status });
        } catch (err) {
          // The release moved on between the lookup and the report (another report ended it): nothing to tell.
          if (!(err instanceof Conflict)) throw err;
          told.push({ id: release.id, status: 'unchanged' });
        }
      }
    }
    const promotions = await deps.promotions.waitingFor(target.organizationId, target.projectId, target);
    for (const promotion of promotions) {
      if (!(await covers(target.projectId, promotion.commitSha, revision, position))) continue;
      const report = await verdictReport(target, promotion.commitSha);
      if (!report) {
        told.push({ id: promotion.id, status: 'Syncing' });
        continue;
      }
      try {
        await deps.promotions.reportSync(target.organizationId, target.projectId, { ...report, tenant: target.tenant });
        told.push({ id: promotion.id, status: 'reported' });
      } catch (err) {
        if (!(err instanceof Conflict)) throw err;
        told.push({ id: promotion.id, status: 'unchanged' });
      }
    }
    return told[0] ?? null;
  }

  /** Tells the waiting release or promotions what a stored report says, then finishes its request with the answer. */
  async function tellStaged(row: WebhookRequestRow, requestId: string) {
    const work = row.work as StagedReport;
    const caller = systemCaller(SUBSYSTEM.controllerWebhook, work.target.organizationId, requestId);
    const release = await tell(caller, work.target, work.revision, work.position);
    if (work.verified) {
      await deps.promotions.sourceReported(work.target.organizationId, work.target.projectId, work.target.environment);
    }
    const result = { ...work.answer, release };
    await finishRequest(db, row.id, { status: 'committed', result });
    return result;
  }

  return {
    /** A new controller token for the organization, shown once; the previous one verifies during the overlap. */
    async rotateToken(caller: OrgCaller) {
      const token = `cdc_${randomBytes(32).toString('base64url')}`;
      const until = new Date(Date.now() + deps.tokenOverlapMs);
      const previousUntil = await db.transaction(async (trx) => {
        const previous = await replaceToken(trx, caller.organizationId, sha256(token).toString('hex'), until);
        await deps.audit.append(
          trx,
          orgEntry(caller, {
            action: 'webhook.controller-token.rotate',
            category: 'webhook',
            resourceType: 'organization',
            resourceId: caller.organizationId,
            details: { previousTokenValidUntil: previous?.toISOString() ?? null },
          }),
        );
        return previous;
      });
      return { token, previousTokenValidUntil: previousUntil?.toISOString() ?? null };
    },

    /** The token's state, never its value (it is shown once, at rotation, and stored only as a hash). */
    tokenState: (caller: OrgCaller) => tokenState(db, caller.organizationId, new Date()),

    async receive(raw: Buffer, authorization: string | undefined, requestId: string) {
      const organizationId = await organizationOf(authorization);
      const event = parseControllerEvent(parseStrictJson(raw.toString('utf8')));
      if (!withinWindow(Date.parse(event.timestamp), Date.now(), deps.replayWindowMs)) {
        throw new InvalidInput('stale event: timestamp outside the 5-minute window');
      }
      const parts = parseApplicationName(event.name);
      if (!parts) throw new NotFound('application name does not name a platform target');
      const project = await findProjectBySlug(db, organizationId, parts.project);
      const tenant = project
        ? (await listProjectTenants(db, organizationId, project.id)).find((t) => t.slug === parts.tenant)
        : undefined;
      if (!project || !tenant) throw new NotFound('application name does not name a platform target');
      if (
        !(await findProjectEnvironment(db, project.id, parts.environment)) ||
        !(await findWorkload(db, project.id, parts.service))
      ) {
        throw new NotFound('application name does not name a platform target');
      }
      await deps.purge();
      const target = {
        organizationId,
        projectId: project.id,
        tenantId: tenant.id,
        tenant: tenant.slug,
        environment: parts.environment,
      };
      const report = {
        ...target,
        service: parts.service,
        syncStatus: event.syncStatus,
        healthStatus: event.healthStatus,
        revision: event.revision,
        reportedAt: new Date(event.timestamp),
      };
      const answer = {
        application: event.name,
        ...parts,
        syncStatus: event.syncStatus,
        healthStatus: event.healthStatus,
        revision: event.revision,
      };
      // The request row (the outbox: what is still to tell), the report and the service's status in one transaction,
      // under the target's lock: a workflow noting its commit sees this report, or this webhook sees its commit.
      const row = await db.transaction(async (trx) => {
        const claimed = await claimRequest(trx, {
          kind: 'cdcontroller',
          request_hash: requestHash(raw),
          organization_id: organizationId,
          project_id: project.id,
          expiresAt: new Date(Date.now() + 2 * deps.replayWindowMs),
        });
        if (!claimed.fresh) return { ...claimed.row, fresh: false };
        await lockDeployedTarget(trx, target);
        const recorded = await recordReport(trx, report);
        if (recorded.outcome === 'stale') {
          await finishRequest(trx, claimed.row.id, { status: 'failed', result: { ...answer, error: 'stale' } });
          return { ...claimed.row, status: 'failed' as const, result: { error: 'stale' }, fresh: true };
        }
        if (recorded.outcome === 'applied') await recordStatus(trx, { ...report, namespace: event.namespace });
        if (recorded.verified) {
          await liftPinsVerifiedUpstream(trx, deps.audit, {
            ...target,
            service: parts.service,
            version: recorded.version,
          });
        }
        const work: StagedReport = {
          target,
          revision: event.revision,
          position: recorded.position,
          verified: recorded.verified,
          answer,
        };
        await stageWork(trx, claimed.row.id, work);
        return { ...claimed.row, work, fresh: true };
      });
      if (row.fresh) {
        if (row.status === 'failed') throw new Conflict('stale event: a newer status of this application is recorded');
        return tellStaged(row, requestId);
      }
      // The same bytes again (WH-3): the spec's 409 with the first request's outcome, storing nothing again. A report
      // stored but not yet told (its process stopped) is told first, as the reconciler would, so the retry learns it.
      if (row.status === 'received' && row.work) {
        throw duplicateRequest({ ...row, status: 'committed', result: await tellStaged(row, requestId) });
      }
      throw duplicateRequest(row);
    },

    /** Tells what reports were stored but not told (a process stopped, Temporal unreachable): the worker's reconciler. */
    async tellUntold(olderThanMs: number): Promise<number> {
      const rows = await unfinishedRequests(db, 'cdcontroller', new Date(Date.now() - olderThanMs), 100);
      for (const row of rows) await tellStaged(row, row.id);
      return rows.length;
    },

    /** Sync status per tenant, environment and service of a project (filters optional). */
    async statuses(
      caller: OrgCaller,
      slug: string,
      filter: { tenant?: string; environment?: string; service?: string },
    ) {
      const project = await deps.projects.projectOf(caller, slug);
      const tenantId = filter.tenant
        ? (await listProjectTenants(db, caller.organizationId, project.id)).find((t) => t.slug === filter.tenant)?.id
        : undefined;
      if (filter.tenant && !tenantId) throw new NotFound('tenant not found');
      const rows = await statusesOf(db, project.id, {
        tenantId,
        environment: filter.environment,
        service: filter.service,
      });
      return {
        items: rows.map((s) => ({
          tenant: s.tenant,
          environment: s.environment,
          service: s.service,
          syncStatus: s.syncStatus,
          healthStatus: s.healthStatus,
          revision: s.revision,
          namespace: s.namespace,
          reportedAt: s.reportedAt.toISOString(),
        })),
      };
    },
  };
}
