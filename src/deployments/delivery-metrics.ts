import type { Db } from '../db/knex';
import { InvalidInput } from '../errors';
import type { OrgCaller } from '../iam/caller';
import type { ProjectService } from '../projects/project-service';
import type { MatrixFilter } from './deployed-state-repository';
import {
  deploymentFigures,
  incidentFigures,
  leadTimeFigures,
  METRIC_GROUPS,
  type DeploymentRow,
  type GroupedRow,
  type IncidentRow,
  type LeadTimeRow,
  type MetricGroup,
  type MetricsQuery,
} from './delivery-metrics-repository';
import { instantOf } from './deployment-history-service';

const DAY = 86_400_000;
const WEEK = 7 * DAY;
/** The longest window metrics answer (docs/deployments.md): a year. */
export const METRICS_WINDOW_DAYS = 366;
/** The default and bounds of the failure window, in seconds: an hour, from a minute to a week. */
export const FAILURE_WINDOW = { default: 3600, min: 60, max: 7 * 86_400 };

/** One group's (or the whole window's) delivery metrics. */
export interface Figures {
  deployments: number;
  deploymentsPerDay: number;
  failedDeployments: number;
  changeFailureRate: number | null;
  leadTime: { count: number; medianSeconds: number | null; p90Seconds: number | null };
  timeToRestore: { incidents: number; restored: number; medianSeconds: number | null };
}

export interface MetricsRequest {
  from?: string;
  to?: string;
  failureWindow?: string;
  groupBy?: string;
}

/** The window, failure window and grouping of a metrics request, checked (400 with the reason otherwise). */
export function metricsParams(q: MetricsRequest, now: Date) {
  if (!q.from) throw new InvalidInput('from is required: the start of the window, an ISO 8601 instant');
  const from = instantOf('from', q.from, now);
  const to = q.to === undefined ? now : instantOf('to', q.to, now);
  if (from.getTime() >= to.getTime()) throw new InvalidInput('from must be before to');
  if (to.getTime() - from.getTime() > METRICS_WINDOW_DAYS * DAY) {
    throw new InvalidInput(`the window from .. to must not be longer than ${METRICS_WINDOW_DAYS} days`);
  }
  const failureWindowSeconds = q.failureWindow === undefined ? FAILURE_WINDOW.default : Number(q.failureWindow);
  if (
    !Number.isInteger(failureWindowSeconds) ||
    failureWindowSeconds < FAILURE_WINDOW.min ||
    failureWindowSeconds > FAILURE_WINDOW.max
  ) {
    throw new InvalidInput(`failureWindow must be whole seconds from ${FAILURE_WINDOW.min} to ${FAILURE_WINDOW.max}`);
  }
  const groupBy = (q.groupBy ?? 'environment') as MetricGroup;
  if (!(groupBy in METRIC_GROUPS)) throw new InvalidInput('groupBy must be environment, tenant or service');
  return { from, to, failureWindowSeconds, groupBy };
}

const slot = (key: string | null, week: Date | null) => `${key ?? '*'}|${week ? week.toISOString() : '*'}`;
const byslot = <T extends GroupedRow>(rows: T[]) => new Map(rows.map((r) => [slot(r.key, r.week), r]));
/** Seconds to the millisecond. */
const seconds = (n: number | null) => (n === null ? null : Math.round(n * 1000) / 1000);

/** The Mondays (00:00 UTC) of the weeks the window touches. */
export function weeksOf(from: Date, to: Date): Date[] {
  const first = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  first.setUTCDate(first.getUTCDate() - ((first.getUTCDay() + 6) % 7));
  const weeks = [];
  for (let t = first.getTime(); t < to.getTime(); t += WEEK) weeks.push(new Date(t));
  return weeks;
}

/** Joins the three queries' rows of one slot into its figures; `days`: the part of the window the slot covers. */
function figuresOf(
  rows: {
    deployments: Map<string, DeploymentRow>;
    leadTimes: Map<string, LeadTimeRow>;
    incidents: Map<string, IncidentRow>;
  },
  key: string | null,
  week: Date | null,
  days: number,
): Figures {
  const d = rows.deployments.get(slot(key, week));
  const l = rows.leadTimes.get(slot(key, week));
  const i = rows.incidents.get(slot(key, week));
  const deployments = d?.deployments ?? 0;
  return {
    deployments,
    deploymentsPerDay: Math.round((deployments / days) * 100) / 100,
    failedDeployments: d?.failed ?? 0,
    changeFailureRate: deployments === 0 ? null : Math.round(((d?.failed ?? 0) / deployments) * 10_000) / 10_000,
    leadTime: { count: l?.count ?? 0, medianSeconds: seconds(l?.median ?? null), p90Seconds: seconds(l?.p90 ?? null) },
    timeToRestore: {
      incidents: i?.incidents ?? 0,
      restored: i?.restored ?? 0,
      medianSeconds: seconds(i?.median ?? null),
    },
  };
}

/**
 * Delivery metrics of a project over a window (issue 47): deployment frequency, lead time for changes, change failure
 * rate and time to restore, for the whole window and per group (environment, tenant or service), and per week.
 */
export function createDeliveryMetrics(deps: {
  db: Db;
  projects: Pick<ProjectService, 'projectOf'>;
  releases: MetricsQuery['releases'];
}) {
  return {
    async metrics(caller: OrgCaller, slug: string, filter: MatrixFilter, q: MetricsRequest) {
      const params = metricsParams(q, new Date());
      const project = await deps.projects.projectOf(caller, slug);
      const query: MetricsQuery = {
        organizationId: caller.organizationId,
        projectId: project.id,
        filter,
        releases: deps.releases,
        ...params,
      };
      const [deployments, leadTimes, incidents] = await Promise.all([
        deploymentFigures(deps.db, query),
        leadTimeFigures(deps.db, query),
        incidentFigures(deps.db, query),
      ]);
      const rows = { deployments: byslot(deployments), leadTimes: byslot(leadTimes), incidents: byslot(incidents) };
      const keys = [...new Set([...deployments, ...leadTimes, ...incidents].map((r) => r.key))]
        .filter((k): k is string => k !== null)
        .sort();
      const { from, to } = params;
      const days = (to.getTime() - from.getTime()) / DAY;
      const slice = (week: Date) =>
        (Math.min(to.getTime(), week.getTime() + WEEK) - Math.max(from.getTime(), week.getTime())) / DAY;
      return {
        from: from.toISOString(),
        to: to.toISOString(),
        groupBy: params.groupBy,
        failureWindowSeconds: params.failureWindowSeconds,
        total: figuresOf(rows, null, null, days),
        groups: keys.map((key) => ({ key, ...figuresOf(rows, key, null, days) })),
        weeks: weeksOf(from, to).map((week) => ({
          start: week.toISOString(),
          total: figuresOf(rows, null, week, slice(week)),
          groups: keys.map((key) => ({ key, ...figuresOf(rows, key, week, slice(week)) })),
        })),
      };
    },
  };
}
