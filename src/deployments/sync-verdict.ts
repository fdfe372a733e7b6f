import type { AuditActor } from '../audit/types';
import type { Queryable } from '../db/knex';
import type { SyncReport } from './sync-report';
import { SUBSYSTEM } from '../iam/subsystems';
import {
  changedServices,
  positionNumber,
  positionOf,
  targetsOf,
  type DeployedTargetRow,
} from './deployed-state-repository';

/** One Application a release or promotion waits for, with the controller's last word on it. */
export interface AwaitedApplication {
  service: string;
  syncStatus: string | null;
  healthStatus: string | null;
  revision: string | null;
  reportedAt: string | null;
}

export type AwaitVerdict = (
  | { outcome: 'Healthy'; waiting: [] }
  | { outcome: 'Failed'; waiting: AwaitedApplication[]; syncStatus: string; healthStatus: string; message: string }
  | { outcome: 'Waiting'; waiting: AwaitedApplication[] }
) & {
  /** The controller's latest report at the awaited revision (or a later one) of an awaited Application, if any. */
  latest: AwaitedApplication | null;
};

const FAILING_HEALTH = ['Degraded', 'Missing'];

/** An awaited Application as the controller last reported it at the awaited revision (nulls: not reported yet). */
const awaited = (service: string, row: DeployedTargetRow | undefined): AwaitedApplication => ({
  service,
  syncStatus: row?.sync_status ?? null,
  healthStatus: row?.health_status ?? null,
  revision: row?.live_revision ?? null,
  reportedAt: row?.reported_at?.toISOString() ?? null,
});

/**
 * What the controller's reports say about a commit on one tenant and environment. Only the Applications whose
 * rendered content the commit changed are awaited (Argo CD sends nothing for the others); a report counts when its
 * revision is the commit or a later one (a descendant: the project's branch only moves forward). Failed as soon as
 * one awaited Application's sync errs or its health is Degraded or Missing; Healthy once each is Synced and Healthy;
 * otherwise Waiting, naming what it still waits for. A commit made before deployed state was recorded awaits every
 * service at exactly that revision, as before.
 */
export async function awaitedVerdict(
  db: Queryable,
  t: {
    projectId: string;
    tenantId: string;
    environment: string;
    revision: string;
    allServices: () => Promise<string[]>;
  },
): Promise<AwaitVerdict> {
  return verdictAt(db, t, await positionOf(db, t.projectId, t.revision));
}

/** awaitedVerdict with the revision's place in the deployment order already read (null: before the record). */
async function verdictAt(
  db: Queryable,
  t: Parameters<typeof awaitedVerdict>[1],
  position: number | null,
): Promise<AwaitVerdict> {
  const services = position === null ? await t.allServices() : await changedServices(db, t, t.revision);
  const rows = new Map((await targetsOf(db, t, services)).map((r) => [r.service, r]));
  const counts = (row: DeployedTargetRow | undefined): row is DeployedTargetRow =>
    row !== undefined &&
    (position === null
      ? row.live_revision === t.revision
      : positionNumber(row.live_position) !== null && (positionNumber(row.live_position) as number) >= position);
  const waiting: AwaitedApplication[] = [];
  const reported = services.flatMap((service) => {
    const row = rows.get(service);
    return counts(row) ? [awaited(service, row)] : [];
  });
  const latest = reported.reduce<AwaitedApplication | null>(
    (a, b) => (a === null || (b.reportedAt ?? '') >= (a.reportedAt ?? '') ? b : a),
    null,
  );
  for (const service of services) {
    const row = rows.get(service);
    if (!counts(row)) {
      // What the controller said of an older revision is not progress of this one (Progress is the controller's).
      waiting.push(awaited(service, undefined));
      continue;
    }
    const sync = row.sync_status ?? '';
    const health = row.health_status ?? '';
    if (sync === 'Error' || FAILING_HEALTH.includes(health)) {
      const message = `service ${service}`;
      return { outcome: 'Failed', waiting, syncStatus: sync, healthStatus: health, message, latest };
    }
    if (sync !== 'Synced' || health !== 'Healthy') waiting.push(awaited(service, row));
  }
  return waiting.length === 0 ? { outcome: 'Healthy', waiting: [], latest } : { outcome: 'Waiting', waiting, latest };
}

/** Who a report found already recorded comes from: the controller webhook that recorded it. */
export const CONTROLLER_ACTOR: AuditActor = {
  userId: null,
  actorType: 'system',
  actor: SUBSYSTEM.controllerWebhook,
  requestId: null,
};

/** The report a decided verdict makes for the workflow waiting on `revision` (null while it still waits). */
export function syncReportOf(verdict: AwaitVerdict, revision: string, actor: AuditActor): SyncReport | null {
  if (verdict.outcome === 'Waiting') return null;
  if (verdict.outcome === 'Healthy') return { revision, syncStatus: 'Synced', healthStatus: 'Healthy', actor };
  return {
    revision,
    syncStatus: verdict.syncStatus as SyncReport['syncStatus'],
    healthStatus: verdict.healthStatus as SyncReport['healthStatus'],
    message: verdict.message,
    actor,
  };
}

/**
 * What the reports recorded so far say about a commit a workflow has just taken note of (under lockDeployedTarget):
 * a fast controller may have reported before the workflow knew its commit, and sends nothing twice.
 */
export async function reportedAlready(
  db: Queryable,
  t: { projectId: string; tenantId: string; environment: string; revision: string },
): Promise<SyncReport | null> {
  // A commit made before deployed state was recorded has no known Applications: the webhook tells it.
  const position = await positionOf(db, t.projectId, t.revision);
  if (position === null) return null;
  const verdict = await verdictAt(db, { ...t, allServices: async () => [] }, position);
  return syncReportOf(verdict, t.revision, CONTROLLER_ACTOR);
}

/**
 * What a workflow waiting on `revision` for one tenant and environment still waits for, per Application (empty when
 * nothing is awaited: no commit yet, or the workflow is past its sync).
 */
export async function stillAwaited(
  db: Queryable,
  t: { projectId: string; tenantId: string; environment: string; revision: string | null; syncing: boolean },
): Promise<AwaitedApplication[]> {
  return (await awaitedProgress(db, t)).waiting;
}

/**
 * A waiting workflow's progress as the controller tells it: the Applications still awaited and the latest report at
 * its revision (nothing while it is not waiting for the controller: an older revision's report is not its progress).
 */
export async function awaitedProgress(
  db: Queryable,
  t: { projectId: string; tenantId: string; environment: string; revision: string | null; syncing: boolean },
): Promise<{ waiting: AwaitedApplication[]; latest: AwaitedApplication | null }> {
  if (!t.syncing || t.revision === null) return { waiting: [], latest: null };
  const verdict = await awaitedVerdict(db, { ...t, revision: t.revision, allServices: async () => [] });
  return { waiting: verdict.outcome === 'Waiting' ? verdict.waiting : [], latest: verdict.latest };
}
