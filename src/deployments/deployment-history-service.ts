import type { Db } from '../db/knex';
import type { PageRequest } from '../db/pagination';
import { InvalidInput } from '../errors';
import { applicationName } from '../delivery-layout/application-name';
import type { OrgCaller } from '../iam/caller';
import type { ProjectService } from '../projects/project-service';
import type { MatrixFilter } from './deployed-state-repository';
import { targetChanges } from './deployment-changes';
import { changedTargetsPage, matrixPageAt, windowEvents } from './deployment-history-repository';
import { deploymentView } from './deployment-service';

/** The longest window `changes` answers (docs/deployments.md): a month of history per page of Applications. */
export const CHANGES_WINDOW_DAYS = 31;
/** Events listed per Application and page; a busier Application says `truncated` (ask for a shorter window). */
export const CHANGES_PER_TARGET = 200;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The date part names a day of the calendar (JavaScript would read 2026-02-30 as March 2nd). */
function realDay(value: string): boolean {
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

/**
 * An ISO 8601 instant with its offset (`2026-11-29T12:00:00Z`), not after now. Without an offset an instant means
 * different moments to different clients, so it is refused rather than read in the server's zone.
 */
export function instantOf(name: string, value: string, now: Date): Date {
  const at = ISO_INSTANT.test(value) && realDay(value) ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime())) {
    throw new InvalidInput(`${name} must be an ISO 8601 instant with a time zone, for example 2026-11-29T12:00:00Z`);
  }
  if (at.getTime() > now.getTime()) throw new InvalidInput(`${name} is in the future (now is ${now.toISOString()})`);
  return at;
}

/** The window (from, to] of `changes`: `to` defaults to now; from before to, at most CHANGES_WINDOW_DAYS long. */
export function windowOf(q: { from?: string; to?: string }, now: Date): { from: Date; to: Date } {
  if (!q.from) throw new InvalidInput('from is required: the start of the window, an ISO 8601 instant');
  const from = instantOf('from', q.from, now);
  const to = q.to === undefined ? now : instantOf('to', q.to, now);
  if (from.getTime() > to.getTime()) throw new InvalidInput('from must not be after to');
  if (to.getTime() - from.getTime() > CHANGES_WINDOW_DAYS * 86_400_000) {
    throw new InvalidInput(`the window from .. to must not be longer than ${CHANGES_WINDOW_DAYS} days`);
  }
  return { from, to };
}

/**
 * The kind and title of some releases of an organization, by id (a rollback is a release of kind `rollback`):
 * src/releases answers, as it owns the table; the module's wiring passes the lookup in (deployments sits below it).
 */
export type ReleaseKinds = (
  organizationId: string,
  ids: string[],
) => Promise<Map<string, { kind: string; title: string }>>;

/**
 * The deployments history (issue 47): the matrix as it was at an instant, and what changed per Application between
 * two instants (version changes with their cause, actor, audit entries and commit; health transitions).
 */
export function createDeploymentHistory(deps: {
  db: Db;
  projects: Pick<ProjectService, 'projectOf'>;
  releaseKinds: ReleaseKinds;
}) {
  const { db } = deps;
  return {
    async matrixAt(caller: OrgCaller, slug: string, filter: MatrixFilter, page: PageRequest, at: string) {
      const instant = instantOf('at', at, new Date());
      const project = await deps.projects.projectOf(caller, slug);
      const result = await matrixPageAt(db, caller.organizationId, project.id, filter, page, instant);
      return {
        at: instant.toISOString(),
        items: result.items.map((r) => deploymentView(project.slug, r)),
        nextCursor: result.nextCursor,
      };
    },

    async changes(
      caller: OrgCaller,
      slug: string,
      filter: MatrixFilter,
      page: PageRequest,
      q: { from?: string; to?: string },
    ) {
      const window = windowOf(q, new Date());
      const project = await deps.projects.projectOf(caller, slug);
      const targets = await changedTargetsPage(db, caller.organizationId, project.id, filter, page, window);
      const events = await windowEvents(db, project.id, targets.items, window, CHANGES_PER_TARGET + 1);
      const releaseIds = events.filter((e) => e.source_kind === 'release' && e.source_id).map((e) => e.source_id!);
      const releases = await deps.releaseKinds(caller.organizationId, [...new Set(releaseIds)]);
      const byTarget = new Map<string, typeof events>();
      for (const e of events) {
        const key = `${e.tenant_id}/${e.environment}/${e.service}`;
        const list = byTarget.get(key);
        if (list) list.push(e);
        else byTarget.set(key, [e]);
      }
      const items = targets.items.map((t) => {
        const own = byTarget.get(`${t.tenant_id}/${t.environment}/${t.service}`) ?? [];
        const target = { project: project.slug, tenant: t.tenant_slug, environment: t.environment, service: t.service };
        return {
          tenant: t.tenant_slug,
          environment: t.environment,
          service: t.service,
          application: applicationName(target),
          ...targetChanges(t, own.slice(0, CHANGES_PER_TARGET), (id) => releases.get(id)),
          truncated: own.length > CHANGES_PER_TARGET,
        };
      });
      return { from: window.from.toISOString(), to: window.to.toISOString(), items, nextCursor: targets.nextCursor };
    },
  };
}
