import type { Command } from 'commander';
import type { DeliveryMetrics as Metrics } from '../lib/api-types';
import { act, subcommand } from '../lib/command-kit';
import { printList } from '../lib/output';

type Figures = Metrics['total'];

/** A duration in seconds as `3d 4h`, `2h 5m`, `4m 10s` or `12.5s` (two units at most); `-` for none. */
export function durationText(seconds: number | null): string {
  if (seconds === null) return '-';
  if (seconds < 60) return `${Math.round(seconds * 10) / 10}s`;
  const units: [string, number][] = [
    ['d', 86_400],
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ];
  const parts: string[] = [];
  let rest = Math.round(seconds);
  for (const [unit, size] of units) {
    if (parts.length === 2) break;
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0 || parts.length > 0) parts.push(`${n}${unit}`);
  }
  return parts.join(' ');
}

const rate = (r: number | null) => (r === null ? '-' : `${Math.round(r * 1000) / 10}%`);

/** A row of the table: a group (or all) in the window, or in one week. */
interface Row {
  week: string | null;
  key: string;
  f: Figures;
}

const columns = [
  { header: 'group', value: (r: Row) => r.key },
  { header: 'deploys', value: (r: Row) => r.f.deployments },
  { header: 'per day', value: (r: Row) => r.f.deploymentsPerDay },
  { header: 'failed', value: (r: Row) => r.f.failedDeployments },
  { header: 'failure rate', value: (r: Row) => rate(r.f.changeFailureRate) },
  { header: 'lead time', value: (r: Row) => durationText(r.f.leadTime.medianSeconds) },
  { header: 'lead p90', value: (r: Row) => durationText(r.f.leadTime.p90Seconds) },
  { header: 'incidents', value: (r: Row) => `${r.f.timeToRestore.restored}/${r.f.timeToRestore.incidents}` },
  { header: 'restore', value: (r: Row) => durationText(r.f.timeToRestore.medianSeconds) },
];

/** `delivery metrics`: deployment frequency, lead time, change failure rate and time to restore (docs/deployments.md). */
export function registerDeliveryMetrics(program: Command): void {
  subcommand(
    program,
    'metrics',
    'Delivery metrics over a window: deployments, lead time for changes, change failure rate, time to restore',
    [
      'delivery metrics --days 90',
      'delivery metrics --from 2026-11-01T00:00:00Z --env prod --group-by service --weeks',
      'delivery metrics --days 30 --failure-window 7200 -o json',
    ],
  )
    .option('--from <instant>', 'start of the window (ISO 8601 with a time zone; excluded)')
    .option('--days <n>', 'the window is the last n days (when --from is not given)', '30')
    .option('--to <instant>', 'end of the window (included; default now)')
    .option('--group-by <what>', 'environment, tenant or service', 'environment')
    .option('--failure-window <seconds>', 'a rollback or Degraded report this soon after a deployment fails it')
    .option('--weeks', 'one row per week and group as well')
    .option('--tenant <tenant>', 'only this tenant')
    .option('--env <environment>', 'only this environment')
    .option('--service <service>', 'only this service')
    .action(
      act<{
        from?: string;
        days: string;
        to?: string;
        groupBy: string;
        failureWindow?: string;
        weeks?: boolean;
        tenant?: string;
        env?: string;
        service?: string;
      }>(async (rt, flags) => {
        const end = flags.to ? new Date(flags.to) : new Date();
        const from = flags.from ?? new Date(end.getTime() - Number(flags.days) * 86_400_000).toISOString();
        const answer = await rt.api.get('/api/v2/projects/{slug}/deployments/metrics', {
          path: { slug: rt.project() },
          query: {
            from,
            to: flags.to,
            groupBy: flags.groupBy as Metrics['groupBy'],
            failureWindow: flags.failureWindow,
            tenant: flags.tenant,
            environment: flags.env,
            service: flags.service,
          },
        });
        const rows: Row[] = [
          ...answer.groups.map((g) => ({ week: null, key: g.key, f: g })),
          { week: null, key: 'all', f: answer.total },
          ...(flags.weeks
            ? answer.weeks.flatMap((w) => [
                ...w.groups.map((g) => ({ week: w.start.slice(0, 10), key: g.key, f: g })),
                { week: w.start.slice(0, 10), key: 'all', f: w.total },
              ])
            : []),
        ];
        if (rt.output === 'table') {
          rt.out.write(`${answer.from} .. ${answer.to}, failure window ${durationText(answer.failureWindowSeconds)}\n`);
        }
        const weekColumn = { header: 'week', value: (r: Row) => r.week ?? 'window' };
        printList(rt.out, rt.output, rows, flags.weeks ? [weekColumn, ...columns] : columns, answer);
      }),
    );
}
