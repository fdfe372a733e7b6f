import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, ok } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import { BreakGlassRoles } from './break-glass-roles';
import { ConfirmAction } from '../../components/confirm-action';
import { DataTable, when } from '../../components/data-table';
import { ErrorNote, Field } from '../../components/form';
import { QueryState, noItems } from '../../components/query-state';
import { StatusBadge } from '../../components/status-badge';
import { useAction } from '../../components/use-action';
import { wordsOf } from '../../components/words';

const id = (sessionId: string) => ({ params: { path: { id: sessionId } } });

/** One session: what was done under it (audit entries carrying its id), and closing it by hand. */
function SessionDetail({ sessionId }: { sessionId: string }) {
  const session = useQuery({
    queryKey: ['governance', 'break-glass', sessionId],
    refetchInterval: 3000,
    queryFn: () => ok(api.GET('/api/v2/break-glass/{id}', id(sessionId))),
  });
  const close = useAction([['governance', 'break-glass']]);
  return (
    <QueryState query={session}>
      {(s) => (
        <section className="card" aria-label={`Break-glass session ${s.id}`}>
          <h3>
            Session {s.id} <StatusBadge status={s.status} />
          </h3>
          <p>
            {s.actor}: “{s.justification}” · opened {when(s.openedAt)} · ends {when(s.closedAt ?? s.endsAt)}
            {s.closeReason && ` (${s.closeReason}${s.closedBy ? ` by ${s.closedBy}` : ''})`}
          </p>
          <h4>What was done under it</h4>
          {s.actions.length === 0 ? (
            <p className="empty">Nothing yet.</p>
          ) : (
            <DataTable
              label="Actions under the session"
              rows={s.actions}
              rowKey={(a) => a.id}
              columns={[
                { header: 'Time', cell: (a) => when(a.createdAt) },
                { header: 'Action', rowHeader: true, cell: (a) => a.action },
                { header: 'Actor', cell: (a) => a.actor },
                {
                  header: 'Session',
                  cell: (a) => (a.details.breakGlass as { sessionId?: string } | undefined)?.sessionId ?? '—',
                },
                { header: 'Details', cell: (a) => <code className="clip">{JSON.stringify(a.details)}</code> },
              ]}
            />
          )}
          {s.status === 'open' && (
            <ConfirmAction
              verb="Close"
              name={s.id.slice(0, 8)}
              onConfirm={() => close.run(() => ok(api.POST('/api/v2/break-glass/{id}/close', id(s.id))))}
            />
          )}
          <ErrorNote error={close.error} />
        </section>
      )}
    </QueryState>
  );
}

/** Break-glass: open a session with a justification and scope, see each session's actions, close it. */
export function BreakGlass() {
  const [shown, setShown] = useState<string | null>(null);
  const sessions = useQuery({
    queryKey: ['governance', 'break-glass'],
    refetchInterval: 5000,
    queryFn: () => ok(api.GET('/api/v2/break-glass')),
  });
  const open = useAction([['governance', 'break-glass']]);
  return (
    <section aria-labelledby="break-glass-heading">
      <h2 id="break-glass-heading">Break-glass</h2>
      <p className="muted">
        A session lets its holder act through freezes and approval waits for a bounded time; every action taken under it
        is audited with the session id and the justification.
      </p>
      <BreakGlassRoles />
      <ActionForm
        label="Open a break-glass session"
        submit="Open a session"
        action={open}
        send={async (v) => {
          const created = await ok(
            api.POST('/api/v2/break-glass', {
              body: {
                justification: v.justification ?? '',
                durationMinutes: Number(v.durationMinutes),
                scope: { projects: wordsOf(v.projects ?? ''), environments: wordsOf(v.environments ?? '') },
              },
            }),
          );
          setShown(created.id);
        }}
      >
        <Field name="justification" label="Justification" isRequired />
        <Field name="durationMinutes" label="Duration (minutes, up to 480)" defaultValue="60" inputMode="numeric" />
        <Field name="projects" label="Projects (slugs; empty: all)" />
        <Field name="environments" label="Environments (empty: all)" />
      </ActionForm>
      {shown && <SessionDetail sessionId={shown} />}
      <QueryState query={sessions} empty="No break-glass session has been opened." isEmpty={noItems}>
        {(page) => (
          <DataTable
            label="Break-glass sessions"
            rows={page.items}
            rowKey={(s) => s.id}
            columns={[
              { header: 'Opened', cell: (s) => when(s.openedAt) },
              { header: 'Holder', rowHeader: true, cell: (s) => s.actor },
              { header: 'Justification', cell: (s) => s.justification },
              { header: 'Status', cell: (s) => <StatusBadge status={s.status} /> },
              {
                header: 'Session',
                cell: (s) => (
                  <Button className="button" onPress={() => setShown(s.id)} aria-label={`Show session ${s.id}`}>
                    Show
                  </Button>
                ),
              },
            ]}
          />
        )}
      </QueryState>
    </section>
  );
}
