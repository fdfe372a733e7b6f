import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, ok } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import { DataTable, when } from '../../components/data-table';
import { Field } from '../../components/form';
import { QueryState, noItems } from '../../components/query-state';
import { StatusBadge } from '../../components/status-badge';
import { useAction } from '../../components/use-action';

/** The organization's clusters: Connected or Disconnected with the last heartbeat; register a new one. */
export function ClustersView() {
  const clusters = useQuery({
    queryKey: ['clusters'],
    refetchInterval: 5000,
    queryFn: () => ok(api.GET('/api/v2/clusters')),
  });
  const add = useAction([['clusters']]);
  return (
    <main>
      <h1>Clusters</h1>
      <ActionForm
        label="Register a cluster"
        submit="Register"
        action={add}
        send={(v) =>
          ok(api.POST('/api/v2/clusters', { body: { name: v.name ?? '', description: v.description ?? '' } }))
        }
      >
        <Field name="name" label="Cluster name" isRequired placeholder="prod-eu-1" />
        <Field name="description" label="Description" />
      </ActionForm>
      <QueryState
        query={clusters}
        empty="No cluster registered yet: register one, then join its agent."
        isEmpty={noItems}
      >
        {(page) => (
          <DataTable
            label="Clusters"
            rows={page.items}
            rowKey={(c) => c.id}
            columns={[
              { header: 'Cluster', rowHeader: true, cell: (c) => <Link to={`/clusters/${c.id}`}>{c.name}</Link> },
              { header: 'Status', cell: (c) => <StatusBadge status={c.status} /> },
              { header: 'Last heartbeat', cell: (c) => when(c.lastHeartbeatAt) },
              { header: 'Kubernetes', cell: (c) => c.kubernetesVersion ?? '—' },
              { header: 'Agent', cell: (c) => c.agentVersion ?? '—' },
              { header: 'Controller', cell: (c) => c.controllerHealth ?? '—' },
            ]}
          />
        )}
      </QueryState>
    </main>
  );
}
