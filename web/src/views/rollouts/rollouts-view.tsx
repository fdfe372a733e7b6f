import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, ok } from '../../api/client';
import { DataTable, when } from '../../components/data-table';
import { ProjectNav } from '../../components/project-nav';
import { QueryState } from '../../components/query-state';
import { StatusBadge } from '../../components/status-badge';

/** The project's rollouts, newest first (polled), each linked to its waves. */
export function RolloutsView() {
  const { slug = '' } = useParams();
  const rollouts = useQuery({
    queryKey: ['project', slug, 'rollouts'],
    refetchInterval: 3000,
    queryFn: () => ok(api.GET('/api/v2/projects/{slug}/rollouts', { params: { path: { slug } } })),
  });
  return (
    <main>
      <h1>Rollouts</h1>
      <ProjectNav slug={slug} />
      <p className="muted">
        A version moving through an environment in waves of tenants, each wave deployed, soaked and verified before the
        next (docs/rollouts.md). Start one with <code>delivery rollout start</code> or the API.
      </p>
      <QueryState query={rollouts}>
        {(page) =>
          page.items.length === 0 ? (
            <p className="empty">No rollout yet.</p>
          ) : (
            <DataTable
              label="Rollouts"
              rows={page.items}
              rowKey={(r) => r.id}
              columns={[
                {
                  header: 'Rollout',
                  rowHeader: true,
                  cell: (r) => (
                    <Link to={`/rollouts/${r.id}`}>
                      {r.sourceEnvironment ?? 'image'} → {r.environment}: {r.version}
                    </Link>
                  ),
                },
                { header: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
                { header: 'Wave', cell: (r) => `${Math.min(r.currentWave + 1, r.waves.length)} of ${r.waves.length}` },
                { header: 'Started', cell: (r) => when(r.createdAt) },
              ]}
            />
          )
        }
      </QueryState>
    </main>
  );
}
