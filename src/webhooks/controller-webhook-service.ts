import { createHash, randomBytes } from 'node:crypto';
import type { AuditService } from '../audit/audit-service';
import type { Db } from '../db/knex';
import { Conflict, InvalidInput, NotFound, Unauthorized } from '../errors';
import { parseApplicationName } from '../gitops/application-name';
import { orgEntry, type OrgCaller } from '../iam/caller';
import { findProjectEnvironment } from '../projects/project-environment-repository';
import { findProjectBySlug } from '../projects/project-repository';
import type { ProjectService } from '../projects/project-service';
import { listProjectTenants } from '../projects/project-tenant-repository';
import { findWorkload, listWorkloads } from '../projects/workload-repository';
import type { ReleaseService } from '../releases/release-service';
import { waiterForRevision } from '../releases/revision-waiters';
import type { PromotionService } from '../promotions/promotion-service';
import { parseControllerEvent } from './controller-payload';
import { organizationOfToken, replaceToken, tokenState } from './controller-token-repository';
import { recordStatus, statusesOf } from './deployment-status-repository';
import { requestHash, withinWindow } from './signature';
import { parseStrictJson } from './strict-json';
import { SUBSYSTEM, systemCaller } from './system-caller';
import { targetVerdict } from './target-verdict';
import { recordRequest } from './webhook-request-repository';

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
  promotions: Pick<PromotionService, 'waitingFor' | 'reportSync'>;
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

  /**
   * Tells the waiting workflow of the target what its services say at this revision: the release committed as that
   * revision, else the promotion whose commit it is (told per tenant).
   */
  async function tell(
    caller: OrgCaller,
    target: {
      organizationId: string;
      projectId: string;
      tenantId: string;
      tenant: string;
      environment: string;
      revision: string;
    },
  ) {
    const waiter =
      (await waiterForRevision(db, target)) ??
      (await deps.promotions.waitingFor(target.organizationId, target.projectId, target.revision));
    if (!waiter) return null;
    const services = (await listWorkloads(db, target.projectId)).map((w) => w.name);
    const statuses = await statusesOf(db, target.projectId, {
      tenantId: target.tenantId,
      environment: target.environment,
    });
    const verdict = targetVerdict(services, statuses, target.revision);
    if (verdict.outcome === 'Waiting') return { id: waiter.id, status: 'Syncing' };
    const report =
      verdict.outcome === 'Healthy'
        ? { revision: target.revision, syncStatus: 'Synced' as const, healthStatus: 'Healthy' as const }
        : {
            revision: target.revision,
            syncStatus: verdict.syncStatus as 'Synced',
            healthStatus: verdict.healthStatus as 'Healthy',
            message: verdict.message,
          };
    if (waiter.kind === 'promotion') {
      const actor = { userId: null, actorType: 'system' as const, actor: SUBSYSTEM.controllerWebhook, requestId: null };
      try {
        await deps.promotions.reportSync(target.organizationId, target.projectId, {
          ...report,
          tenant: target.tenant,
          actor,
        });
      } catch (err) {
        if (err instanceof Conflict) return { id: waiter.id, status: 'unchanged' };
        throw err;
      }
      return { id: waiter.id, status: 'reported' };
    }
    try {
      const release = await deps.releases.reportSync(caller, waiter.id, report);
      return { id: release.id, status: release.status };
    } catch (err) {
      // The release moved on between the lookup and the report (another report ended it): nothing to tell.
      if (err instanceof Conflict) return { id: waiter.id, status: 'unchanged' };
      throw err;
    }
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
      await recordRequest(db, {
        kind: 'cdcontroller',
        request_hash: requestHash(raw),
        organization_id: organizationId,
        project_id: project.id,
        expiresAt: new Date(Date.now() + 2 * deps.replayWindowMs),
      });
      const target = { organizationId, projectId: project.id, tenantId: tenant.id, environment: parts.environment };
      const fresh = await recordStatus(db, {
        ...target,
        tenant: tenant.slug,
        service: parts.service,
        syncStatus: event.syncStatus,
        healthStatus: event.healthStatus,
        revision: event.revision,
        namespace: event.namespace,
        reportedAt: new Date(event.timestamp),
      });
      if (!fresh) throw new Conflict('stale event: a newer status of this application is recorded');
      const caller = systemCaller(SUBSYSTEM.controllerWebhook, organizationId, requestId);
      const release = await tell(caller, { ...target, tenant: tenant.slug, revision: event.revision });
      return {
        application: event.name,
        ...parts,
        syncStatus: event.syncStatus,
        healthStatus: event.healthStatus,
        revision: event.revision,
        release,
      };
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
