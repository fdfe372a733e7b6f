import { IAM_CATEGORIES } from './types';
import type { Db } from '../db/knex';
import { InvalidInput } from '../errors';

export interface AuditReport {
  organizationId: string;
  from: string;
  to: string;
  total: number;
  byCategory: Record<string, number>;
  byOutcome: Record<string, number>;
  /** The most active actors first, capped: a summary, not a listing (the audit-events route has the entries). */
  byActor: { actor: string; actorType: string; count: number }[];
  byAction: Record<string, number>;
}

const DAY_MS = 86_400_000;
const MAX_PERIOD_DAYS = 366;
const TOP_ACTORS = 50;

/** The period of a report: default the last 30 days, at most a year, `from` before `to`. */
export function reportPeriod(q: { from?: string; to?: string }, now = new Date()): { from: Date; to: Date } {
  const to = q.to ? new Date(q.to) : now;
  const from = q.from ? new Date(q.from) : new Date(to.getTime() - 30 * DAY_MS);
  // The date-time format admits instants Date cannot hold (a leap second, 23:59:60): refused, never a 500.
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) {
    throw new InvalidInput('from and to must be valid instants');
  }
  if (from.getTime() >= to.getTime()) throw new InvalidInput('from must be before to');
  if (to.getTime() - from.getTime() > MAX_PERIOD_DAYS * DAY_MS) {
    throw new InvalidInput(`the period can cover at most ${MAX_PERIOD_DAYS} days`);
  }
  return { from, to };
}

/** Counts of the organization's IAM audit entries over a period (GET /api/v2/iam/audit-report); JSON only. */
export async function iamAuditReport(db: Db, organizationId: string, period: { from: Date; to: Date }) {
  const scope = () =>
    db('audit_log')
      .where('organization_id', organizationId)
      .whereIn('category', IAM_CATEGORIES)
      .where('created_at', '>=', period.from)
      .where('created_at', '<=', period.to);
  const grouped = async (column: string) =>
    Object.fromEntries(
      (
        (await scope().groupBy(column).select(`${column} as key`, db.raw('count(*) as n'))) as {
          key: string;
          n: string;
        }[]
      ).map((r) => [r.key, Number(r.n)]),
    );
  const actors = (await scope()
    .groupBy('actor', 'actor_type')
    .select('actor', 'actor_type', db.raw('count(*) as n'))
    .orderBy([{ column: 'n', order: 'desc' }, 'actor'])
    .limit(TOP_ACTORS)) as { actor: string; actor_type: string; n: string }[];
  const byCategory = await grouped('category');
  const report: AuditReport = {
    organizationId,
    from: period.from.toISOString(),
    to: period.to.toISOString(),
    total: Object.values(byCategory).reduce((a, b) => a + b, 0),
    byCategory,
    byOutcome: await grouped('status'),
    byActor: actors.map((a) => ({ actor: a.actor, actorType: a.actor_type, count: Number(a.n) })),
    byAction: await grouped('action'),
  };
  return report;
}
