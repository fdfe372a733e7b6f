import { useQuery } from '@tanstack/react-query';
import { Button } from 'react-aria-components';
import { api, ok } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import { useMembers } from './settings-queries';
import { Choice, optionsOf } from '../../components/choice';
import { ConfirmAction } from '../../components/confirm-action';
import { DataTable, when } from '../../components/data-table';
import { ErrorNote, Field } from '../../components/form';
import { QueryState, noItems } from '../../components/query-state';
import { StatusBadge } from '../../components/status-badge';
import { useAction } from '../../components/use-action';
import { ROLES, type Role } from './models';

/** Members with their roles (change, remove). */
export function Members({ slug }: { slug: string }) {
  const members = useMembers(slug);
  const action = useAction([['settings', 'members']]);
  const path = (userId: string) => ({ params: { path: { slug, userId } } });
  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading">Members and roles</h2>
      <ErrorNote error={action.error} />
      <QueryState query={members}>
        {(page) => (
          <DataTable
            label="Members"
            rows={page.items}
            rowKey={(m) => m.userId}
            columns={[
              { header: 'Member', rowHeader: true, cell: (m) => `${m.name} <${m.email}>` },
              {
                header: 'Role',
                cell: (m) => (
                  <Choice
                    label={`Role of ${m.email}`}
                    name={`role-${m.userId}`}
                    value={m.role}
                    options={optionsOf([...ROLES])}
                    onChange={(role) =>
                      void action.run(() =>
                        ok(
                          api.PATCH('/api/v1/organizations/{slug}/members/{userId}', {
                            ...path(m.userId),
                            body: { role: role as Role },
                          }),
                        ),
                      )
                    }
                  />
                ),
              },
              { header: 'Joined', cell: (m) => when(m.joinedAt) },
              {
                header: 'Remove',
                cell: (m) => (
                  <ConfirmAction
                    verb="Remove"
                    name={m.email}
                    onConfirm={() =>
                      action.run(() => ok(api.DELETE('/api/v1/organizations/{slug}/members/{userId}', path(m.userId))))
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

/** Invitations: send, reissue (new token, mail again), revoke. */
export function Invitations({ slug }: { slug: string }) {
  const invitations = useQuery({
    queryKey: ['settings', 'invitations'],
    queryFn: () => ok(api.GET('/api/v1/organizations/{slug}/invitations', { params: { path: { slug }, query: {} } })),
  });
  const action = useAction([['settings', 'invitations']]);
  const path = (id: string) => ({ params: { path: { slug, id } } });
  return (
    <section aria-labelledby="invitations-heading">
      <h2 id="invitations-heading">Invitations</h2>
      <ActionForm
        label="Invite someone"
        submit="Send invitation"
        action={action}
        send={(v) =>
          ok(
            api.POST('/api/v1/organizations/{slug}/invitations', {
              params: { path: { slug } },
              body: { email: v.email ?? '', role: (v.role ?? 'member') as Role },
            }),
          )
        }
      >
        <Field name="email" label="Email to invite" type="email" isRequired />
        <Choice name="role" label="Invited role" options={optionsOf(['member', 'viewer', 'admin', 'owner'])} />
      </ActionForm>
      <QueryState query={invitations} empty="No invitation." isEmpty={noItems}>
        {(page) => (
          <DataTable
            label="Invitations"
            rows={page.items}
            rowKey={(i) => i.id}
            columns={[
              { header: 'Email', rowHeader: true, cell: (i) => i.email },
              { header: 'Role', cell: (i) => i.role },
              { header: 'Status', cell: (i) => <StatusBadge status={i.status} /> },
              { header: 'Mail', cell: (i) => i.mail.status },
              { header: 'Expires', cell: (i) => when(i.expiresAt) },
              {
                header: 'Actions',
                cell: (i) =>
                  i.status === 'pending' || i.status === 'expired' ? (
                    <>
                      <Button
                        className="button"
                        aria-label={`Reissue the invitation of ${i.email}`}
                        onPress={() =>
                          void action.run(() =>
                            ok(api.POST('/api/v1/organizations/{slug}/invitations/{id}/reissue', path(i.id))),
                          )
                        }
                      >
                        Reissue
                      </Button>
                      <ConfirmAction
                        verb="Revoke"
                        name={i.email}
                        onConfirm={() =>
                          action.run(() => ok(api.DELETE('/api/v1/organizations/{slug}/invitations/{id}', path(i.id))))
                        }
                      />
                    </>
                  ) : (
                    '—'
                  ),
              },
            ]}
          />
        )}
      </QueryState>
    </section>
  );
}
