import { useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import { api, messageOf, ok } from '../../api/client';
import type { DeliveryMetrics } from '../../api/models';
import { ErrorNote } from '../../components/form';
import { ProjectNav } from '../../components/project-nav';
import { Legend, WeeklyBars } from './weekly-bars';

type Figures = DeliveryMetrics['total'];
const DAY = 86_400_000;

/** Seconds as `45s`, `12m`, `3.5h` or `2.1d`. */
export function duration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)}s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.round(seconds / 360) / 10}h`;
  return `${Math.round(seconds / 8640) / 10}d`;
}
const percent = (r: number) => `${Math.round(r * 1000) / 10}%`;

const COLUMNS: { title: string; value: (f: Figures) => number | null; format: (n: number) => string }[] = [
  { title: 'Deployments', value: (f) => f.deployments, format: String },
  { title: 'Change failure rate', value: (f) => f.changeFailureRate, format: percent },
  { title: 'Lead time for changes (median)', value: (f) => f.leadTime.medianSeconds, format: duration },
  { title: 'Time to restore (median)', value: (f) => f.timeToRestore.medianSeconds, format: duration },
];

/** Deployment frequency, lead time, change failure rate and time to restore over the last weeks, per group. */
export function MetricsView() {
  const { slug = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const days = Number(search.get('days') ?? '90');
  const groupBy = (search.get('groupBy') ?? 'environment') as DeliveryMetrics['groupBy'];
  const metrics = useQuery({
    queryKey: ['project', slug, 'metrics', days, groupBy],
    queryFn: () =>
      ok(
        api.GET('/api/v2/projects/{slug}/deployments/metrics', {
          params: { path: { slug }, query: { from: new Date(Date.now() - days * DAY).toISOString(), groupBy } },
        }),
      ),
  });
  const data = metrics.data;
  const keys = data?.groups.map((g) => g.key) ?? [];
  const change = (name: string, value: string) => setSearch({ days: String(days), groupBy, [name]: value });
  return (
    <main>
      <h1>Delivery metrics</h1>
      <ProjectNav slug={slug} />
      <p className="muted">
        From the recorded deployments: how often, how fast from a version&apos;s first record to Healthy, how often a
        deployment was rolled back or turned Degraded within the hour, and how long until Healthy again.
      </p>
      <label>
        Window{' '}
        <select value={days} onChange={(e) => change('days', e.target.value)}>
          {[7, 30, 90, 180].map((d) => (
            <option key={d} value={d}>{`last ${d} days`}</option>
          ))}
        </select>
      </label>{' '}
      <label>
        Per{' '}
        <select value={groupBy} onChange={(e) => change('groupBy', e.target.value)}>
          <option value="environment">environment</option>
          <option value="tenant">tenant</option>
          <option value="service">service</option>
        </select>
      </label>
      <ErrorNote error={metrics.error ? messageOf(metrics.error) : null} />
      {data && (
        <>
          <table className="list" aria-label="Delivery metrics">
            <thead>
              <tr>
                <th scope="col">{groupBy}</th>
                <th scope="col">Deployments</th>
                <th scope="col">Per day</th>
                <th scope="col">Change failure rate</th>
                <th scope="col">Lead time (median)</th>
                <th scope="col">Time to restore (median)</th>
              </tr>
            </thead>
            <tbody>
              {[...data.groups, { key: 'all', ...data.total }].map((g) => (
                <tr key={g.key}>
                  <th scope="row">{g.key}</th>
                  <td>{g.deployments}</td>
                  <td>{g.deploymentsPerDay}</td>
                  <td>{g.changeFailureRate === null ? '-' : percent(g.changeFailureRate)}</td>
                  <td>{g.leadTime.medianSeconds === null ? '-' : duration(g.leadTime.medianSeconds)}</td>
                  <td>{g.timeToRestore.medianSeconds === null ? '-' : duration(g.timeToRestore.medianSeconds)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Legend keys={keys} />
          {COLUMNS.map((c) => (
            <WeeklyBars key={c.title} weeks={data.weeks} keys={keys} {...c} />
          ))}
        </>
      )}
    </main>
  );
}
