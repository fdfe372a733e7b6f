import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import type { Page } from '../../api/models';
import type { RequestSchema } from '../../api/request-schemas';
import { Choice, optionsOf } from '../../components/choice';
import { ConfirmAction } from '../../components/confirm-action';
import { DataTable } from '../../components/data-table';
import { Field } from '../../components/form';
import { QueryState, noItems } from '../../components/query-state';
import { useAction } from '../../components/use-action';
import type { Grant, Team } from './models';

/** Teams of the organization: create, delete (by name). */
export function Teams() {
  const teams = useQuery({ queryKey: ['settings', 'teams'], queryFn: () => ok<Page<Team>>(api.GET('/api/v2/teams')) });
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

type GrantBody = RequestSchema<'permission-create'>;

/** Resource grants: a user, team or service account gets a role on a cluster, project or tenant. */
export function Grants() {
  const grants = useQuery({
    queryKey: ['settings', 'grants'],
    queryFn: () => ok<Page<Grant>>(api.GET('/api/v2/permissions', { params: { query: {} } })),
  });
  const action = useAction([['settings', 'grants']]);
  return (
    <section aria-labelledby="grants-heading">
      <h2 id="grants-heading">Resource grants</h2>
      <ActionForm
        label="Grant a role on a resource"
        submit="Grant"
        action={action}
        send={(v) =>
          ok(
            api.POST('/api/v2/permissions', {
              body: {
                subjectType: v.subjectType as GrantBody['subjectType'],
                subjectId: v.subjectId ?? '',
                resourceType: v.resourceType as GrantBody['resourceType'],
                resourceId: v.resourceId ?? '',
                role: v.role as GrantBody['role'],
              },
            }),
          )
        }
      >
        <Choice name="subjectType" label="Subject type" options={optionsOf(['user', 'team', 'service_account'])} />
        <Field name="subjectId" label="Subject id" isRequired />
        <Choice name="resourceType" label="Resource type" options={optionsOf(['project', 'tenant', 'cluster'])} />
        <Field name="resourceId" label="Resource id" isRequired />
        <Choice name="role" label="Granted role" options={optionsOf(['viewer', 'member', 'admin'])} />
      </ActionForm>
      <QueryState query={grants} empty="No resource grant: roles come from the organization only." isEmpty={noItems}>
        {(page) => (
          <DataTable
            label="Resource grants"
            rows={page.items}
            rowKey={(g) => g.id}
            columns={[
              { header: 'Subject', rowHeader: true, cell: (g) => `${g.subjectType} ${g.subjectId}` },
              { header: 'Resource', cell: (g) => `${g.resourceType} ${g.resourceId}` },
              { header: 'Role', cell: (g) => g.role },
              {
                header: 'Revoke',
                cell: (g) => (
                  <ConfirmAction
                    verb="Revoke"
                    name={g.id.slice(0, 8)}
                    onConfirm={() =>
                      action.run(() =>
                        ok(api.DELETE('/api/v2/permissions/{grantId}', { params: { path: { grantId: g.id } } })),
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
