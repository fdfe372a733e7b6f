import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { api, ok } from '../../api/client';
import { ConfirmAction } from '../../components/confirm-action';
import { when } from '../../components/data-table';
import { ErrorNote } from '../../components/form';
import { QueryState } from '../../components/query-state';
import { StatusBadge } from '../../components/status-badge';
import { useAction } from '../../components/use-action';
import { Bindings } from './bindings';
import { ClusterAccess } from './cluster-access';
import { Commands, DriftList } from './cluster-operations';

/** One cluster: its facts, agent access, drift, commands and bindings; deletion asks for its name. */
export function ClusterView() {
  const clusterId = useParams().id ?? '';
  const navigate = useNavigate();
  const cluster = useQuery({
    queryKey: ['cluster', clusterId],
    refetchInterval: 5000,
    queryFn: () => ok(api.GET('/api/v2/clusters/{clusterId}', { params: { path: { clusterId } } })),
  });
  const remove = useAction([['clusters']]);
  return (
    <main>
      <QueryState query={cluster}>
        {(c) => (
          <>
            <h1>
              Cluster {c.name} <StatusBadge status={c.status} />
            </h1>
            <p className="muted">
              {c.description || 'No description'} · last heartbeat {when(c.lastHeartbeatAt)} · Kubernetes{' '}
              {c.kubernetesVersion ?? 'unknown'} · controller {c.controllerHealth ?? 'unknown'}
            </p>
            <ClusterAccess cluster={c} />
            <DriftList clusterId={c.id} />
            <Commands clusterId={c.id} />
            <Bindings clusterId={c.id} />
            <h2>Delete</h2>
            <ConfirmAction
              verb="Delete"
              name={c.name}
              onConfirm={() =>
                remove.run(async () => {
                  await ok(api.DELETE('/api/v2/clusters/{clusterId}', { params: { path: { clusterId } } }));
                  await navigate('/clusters');
                })
              }
            />
            <ErrorNote error={remove.error} />
          </>
        )}
      </QueryState>
    </main>
  );
}
