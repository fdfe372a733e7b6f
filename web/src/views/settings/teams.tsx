import { api, ok } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import { ConfirmAction } from '../../components/confirm-action';
import { DataTable } from '../../components/data-table';
import { Field } from '../../components/form';
import { QueryState, noItems } from '../../components/query-state';
import { useAction } from '../../components/use-action';
import { useTeams } from './settings-queries';

/** Teams of the organization: create, delete (by name). */
export function Teams() {
  const teams = useTeams();
  const action = useAction([['settings', 'teams']]);
  return (
    <section aria-labelledby="teams-heading">
      <h2 id="teams-heading">Teams</h2>
      <ActionForm
        label="Create a team"
        submit="Create team"
        action={action}
        send={(v) => ok(api.POST('/api/v2/teams', { body: { slug: v.slug ?? '', name: v.name ?? '' } }))}
      >
        <Field name="slug" label="Team slug" isRequired />
        <Field name="name" label="Team name" isRequired />
      </ActionForm>
      <QueryState query={teams} empty="No team yet." isEmpty={noItems}>
        {(page) => (
          <DataTable
            label="Teams"
            rows={page.items}
            rowKey={(t) => t.id}
            columns={[
              { header: 'Team', rowHeader: true, cell: (t) => `${t.name} (${t.slug})` },
              { header: 'Members', cell: (t) => t.memberCount },
              {
                header: 'Delete',
                cell: (t) => (
                  <ConfirmAction
                    verb="Delete"
                    name={t.slug}
                    onConfirm={() =>
                      action.run(() => ok(api.DELETE('/api/v2/teams/{teamId}', { params: { path: { teamId: t.id } } })))
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
