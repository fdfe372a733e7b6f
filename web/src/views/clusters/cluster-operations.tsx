import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import type { RequestSchema } from '../../api/request-schemas';
import { Choice, optionsOf } from '../../components/choice';
import { DataTable, when } from '../../components/data-table';
import { Field } from '../../components/form';
import { QueryState, noItems } from '../../components/query-state';
import { StatusBadge } from '../../components/status-badge';
import { useAction } from '../../components/use-action';

/** Resources whose live state differs from Git, each with its per-field diff. */
export function DriftList({ clusterId }: { clusterId: string }) {
  const drift = useQuery({
    queryKey: ['cluster', clusterId, 'drift'],
    refetchInterval: 5000,
    queryFn: () => ok(api.GET('/api/v2/clusters/{clusterId}/drift', { params: { path: { clusterId }, query: {} } })),
  });
  return (
    <section aria-labelledby="drift-heading">
      <h2 id="drift-heading">Drift</h2>
      <QueryState query={drift} empty="No drift: the live state matches Git." isEmpty={noItems}>
        {(page) => (
          <ul className="cards">
            {page.items.map((d) => (
              <li key={d.id} className="card">
                <h3>
                  {d.resource} <span className="muted">({d.application})</span> <StatusBadge status={d.status} />
                </h3>
                <DataTable
                  label={`Drifted fields of ${d.resource}`}
                  rows={d.fields}
                  rowKey={(f) => f.path}
                  columns={[
                    { header: 'Field', rowHeader: true, cell: (f) => <code>{f.path}</code> },
                    { header: 'In Git', cell: (f) => <code className="del">{f.desired}</code> },
                    { header: 'Live', cell: (f) => <code className="add">{f.live}</code> },
                  ]}
                />
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}

type Command = RequestSchema<'cluster-command'>;
const KINDS = ['Deployment', 'StatefulSet', 'DaemonSet'];

function sendCommand(clusterId: string, v: Record<string, string>) {
  const command = v.command as Command['command'];
  const workload =
    command === 'restart'
      ? {
          kind: v.kind as NonNullable<Command['workload']>['kind'],
          namespace: v.namespace ?? '',
          name: v.workload ?? '',
        }
      : undefined;
  return ok(
    api.POST('/api/v2/clusters/{clusterId}/commands', {
      params: { path: { clusterId } },
      body: { command, ...(v.application ? { application: v.application } : {}), ...(workload ? { workload } : {}) },
    }),
  );
}

/** Commands for the agent (sync, refresh, restart a workload) and their results. */
export function Commands({ clusterId }: { clusterId: string }) {
  const commands = useQuery({
    queryKey: ['cluster', clusterId, 'commands'],
    refetchInterval: 3000,
    queryFn: () => ok(api.GET('/api/v2/clusters/{clusterId}/commands', { params: { path: { clusterId } } })),
  });
  const send = useAction([['cluster', clusterId, 'commands']]);
  return (
    <section aria-labelledby="commands-heading">
      <h2 id="commands-heading">Commands</h2>
      <ActionForm label="Send a command" submit="Send" action={send} keep send={(v) => sendCommand(clusterId, v)}>
        <Choice name="command" label="Command" options={optionsOf(['sync', 'refresh', 'restart'])} />
        <Field name="application" label="Application" />
        <Choice name="kind" label="Workload kind (restart)" options={optionsOf(KINDS)} />
        <Field name="namespace" label="Namespace (restart)" />
        <Field name="workload" label="Workload (restart)" />
      </ActionForm>
      <QueryState query={commands} empty="No command sent yet." isEmpty={noItems}>
        {(page) => (
          <DataTable
            label="Commands"
            rows={page.items}
            rowKey={(c) => c.id}
            columns={[
              { header: 'Sent', cell: (c) => when(c.createdAt) },
              {
                header: 'Command',
                rowHeader: true,
                cell: (c) => `${c.command} ${c.params.application ?? c.params.workload?.name ?? ''}`,
              },
              { header: 'By', cell: (c) => c.requestedBy },
              { header: 'Status', cell: (c) => <StatusBadge status={c.status} /> },
              { header: 'Result', cell: (c) => c.result?.message ?? '—' },
            ]}
          />
        )}
      </QueryState>
    </section>
  );
}
