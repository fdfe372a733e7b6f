import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import { useAllProjects } from '../../api/org-queries';
import { Choice } from '../../components/choice';
import { ConfirmAction } from '../../components/confirm-action';
import { DataTable } from '../../components/data-table';
import { Field } from '../../components/form';
import { QueryState, noItems } from '../../components/query-state';
import { useAction } from '../../components/use-action';
import { wordsOf } from '../../components/words';

/** Which project tenants and environments the cluster's agent serves (their Kubernetes version follows it). */
export function Bindings({ clusterId }: { clusterId: string }) {
  const projects = useAllProjects();
  const bindings = useQuery({
    queryKey: ['cluster', clusterId, 'bindings'],
    queryFn: () => ok(api.GET('/api/v2/agent-bindings', { params: { query: { clusterId } } })),
  });
  const action = useAction([['cluster', clusterId, 'bindings']]);
  return (
    <section aria-labelledby="bindings-heading">
      <h2 id="bindings-heading">Agent bindings</h2>
      <ActionForm
        label="Bind a project"
        submit="Bind"
        action={action}
        keep
        send={(v) =>
          ok(
            api.POST('/api/v2/agent-bindings', {
              body: {
                clusterId,
                project: v.project ?? '',
                tenants: wordsOf(v.tenants ?? ''),
                environments: wordsOf(v.environments ?? ''),
              },
            }),
          )
        }
      >
        <Choice
          name="project"
          label="Project"
          required
          options={(projects.data?.items ?? []).map((p) => ({ value: p.slug, label: p.name }))}
        />
        <Field name="tenants" label="Tenants (slugs; empty: all)" />
        <Field name="environments" label="Environments (empty: all)" />
      </ActionForm>
      <QueryState query={bindings} empty="No project is bound to this cluster." isEmpty={noItems}>
        {(page) => (
          <DataTable
            label="Agent bindings"
            rows={page.items}
            rowKey={(b) => b.id}
            columns={[
              { header: 'Project', rowHeader: true, cell: (b) => b.project.slug },
              { header: 'Tenants', cell: (b) => b.tenants.map((t) => t.slug).join(', ') || 'all' },
              {
                header: 'Environments',
                cell: (b) => b.environments.map((e) => `${e.environment} (${e.kubernetesVersion})`).join(', ') || 'all',
              },
              {
                header: 'Remove',
                cell: (b) => (
                  <ConfirmAction
                    verb="Unbind"
                    name={b.project.slug}
                    onConfirm={() =>
                      action.run(() =>
                        ok(api.DELETE('/api/v2/agent-bindings/{bindingId}', { params: { path: { bindingId: b.id } } })),
                      )
                    }
                  />
                ),
              },
            ]}
          />
        )}
      </QueryState>
    </section>
  );
}
