import type { AuditService } from '../audit/audit-service';
import type { Db, Queryable } from '../db/knex';
import { InvalidInput, NotFound, Unauthorized } from '../errors';
import { DOMAIN_EVENT } from '../events/domain-event-repository';
import type { AgentSession } from './agent-hub';
import { agentActor, recordClusterChange } from './cluster-audit';
import {
  findClusterRow,
  markApplicationsOutOfSync,
  recordApplications,
  type ApplicationStatus,
} from './cluster-repository';
import { finishCommand } from './command-repository';
import { applyDriftReport, type DriftedResource } from './drift-repository';

/** Bounds of one report: what a cluster reports is capped like any other input (DESIGN: bounded work). */
export const REPORT_LIMITS = { resources: 1000, fieldsPerResource: 100, applications: 2000, text: 1024 } as const;

function checkText(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length > REPORT_LIMITS.text || value.includes('\u0000')) {
    throw new InvalidInput(`${what} must be a string of at most ${REPORT_LIMITS.text} characters`);
  }
  return value;
}

function checkDrift(resources: DriftedResource[]): DriftedResource[] {
  if (resources.length > REPORT_LIMITS.resources) throw new InvalidInput('too many drifted resources in one report');
  const seen = new Set<string>();
  return resources.map((r) => {
    const resource = checkText(r.resource, 'resource');
    if (resource === '' || seen.has(resource)) throw new InvalidInput('each resource must be named once');
    seen.add(resource);
    if (r.fields.length === 0 || r.fields.length > REPORT_LIMITS.fieldsPerResource) {
      throw new InvalidInput(`a drifted resource has 1 to ${REPORT_LIMITS.fieldsPerResource} fields`);
    }
    return {
      resource,
      application: checkText(r.application, 'application'),
      fields: r.fields.map((f) => ({
        path: checkText(f.path, 'field path'),
        desired: checkText(f.desired, 'desired value'),
        live: checkText(f.live, 'live value'),
      })),
    };
  });
}

async function clusterOf(db: Queryable, session: AgentSession) {
  const row = await findClusterRow(db, session.clusterId);
  if (!row) throw new Unauthorized('invalid or expired agent credential');
  return { id: row.id, organizationId: row.organization_id, name: row.name };
}

/** What the agent reports back: command results, drift (a full snapshot each time), application sync status. */
export function createAgentReports(deps: { db: Db; audit: AuditService }) {
  const { db, audit } = deps;
  return {
    reportCommandResult(
      session: AgentSession,
      input: { commandId: string; succeeded: boolean; message: string; details?: Record<string, unknown> },
    ): Promise<void> {
      const message = checkText(input.message, 'message');
      return db.transaction(async (trx) => {
        const cluster = await clusterOf(trx, session);
        const row = /^[0-9a-f-]{36}$/.test(input.commandId)
          ? await finishCommand(trx, session.clusterId, input.commandId, {
              succeeded: input.succeeded,
              result: { message, ...(input.details ? { details: input.details } : {}) },
            })
          : null;
        if (!row) throw new NotFound('command not found or not awaiting a result');
        await recordClusterChange(trx, audit, {
          cluster,
          action: 'cluster.command.result',
          actor: agentActor(cluster),
          details: { commandId: row.id, command: row.name, status: row.status, message },
        });
      });
    },

    /**
     * New drift records drift.detect; records the report no longer names are resolved (audited); the applications it
     * names are OutOfSync from now on.
     */
    reportDrift(session: AgentSession, reported: DriftedResource[]): Promise<{ detected: number; resolved: number }> {
      const resources = checkDrift(reported);
      return db.transaction(async (trx) => {
        const cluster = await clusterOf(trx, session);
        const { detected, resolved } = await applyDriftReport(
          trx,
          { organizationId: session.organizationId, clusterId: session.clusterId },
          resources,
        );
        await markApplicationsOutOfSync(trx, session.clusterId, new Set(resources.map((r) => r.application)));
        for (const d of detected) {
          await recordClusterChange(trx, audit, {
            cluster,
            action: 'cluster.drift.detect',
            actor: agentActor(cluster),
            details: { driftId: d.id, resource: d.resource, application: d.application, fields: d.fields.length },
            event: DOMAIN_EVENT.driftDetected,
          });
        }
        for (const d of resolved) {
          await recordClusterChange(trx, audit, {
            cluster,
            action: 'cluster.drift.resolve',
            actor: agentActor(cluster),
            details: { driftId: d.id, resource: d.resource, application: d.application },
          });
        }
        return { detected: detected.length, resolved: resolved.length };
      });
    },

    /** The whole set of applications with their sync and health status (the controller webhook's facts). */
    async reportSync(session: AgentSession, applications: ApplicationStatus[]): Promise<void> {
      if (applications.length > REPORT_LIMITS.applications) throw new InvalidInput('too many applications');
      const checked = applications.map((a) => ({
        name: checkText(a.name, 'name'),
        namespace: checkText(a.namespace, 'namespace'),
        syncStatus: checkText(a.syncStatus, 'syncStatus'),
        revision: checkText(a.revision, 'revision'),
        healthStatus: checkText(a.healthStatus, 'healthStatus'),
      }));
      await recordApplications(db, session.clusterId, checked);
    },
  };
}
