import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'react-aria-components';
import { api, ok } from '../../api/client';
import { ConfirmAction } from '../../components/confirm-action';
import { DataTable, when } from '../../components/data-table';
import { ErrorNote, Field } from '../../components/form';
import { QueryState } from '../../components/query-state';
import { useAction } from '../../components/use-action';
import { FreezeCalendar } from './freeze-calendar';
import { FreezeForm } from './freeze-form';
import type { FreezeView, StopTheLine } from './models';

function StopTheLineSwitch({ state }: { state: StopTheLine }) {
  const [reason, setReason] = useState('');
  const action = useAction([['governance', 'freezes']]);
  const set = (enabled: boolean) =>
    void action.run(() =>
      ok(api.PUT('/api/v2/freezes/stop-the-line', { body: { enabled, ...(reason ? { reason } : {}) } })),
    );
  return (
    <div className={state.enabled ? 'banner bad' : 'banner'} role="status">
      {state.enabled ? (
        <>
          <strong>The line is stopped</strong>: every project is frozen ({state.reason}, by {state.changedBy},{' '}
          {when(state.changedAt)}).{' '}
          <Button className="button" onPress={() => set(false)}>
            Release the line
          </Button>
        </>
      ) : (
        <div className="row">
          <Field label="Reason to stop the line" value={reason} onChange={setReason} />
          <Button className="button danger" onPress={() => set(true)} isDisabled={reason.trim() === ''}>
            Stop the line
          </Button>
        </div>
      )}
      <ErrorNote error={action.error} />
    </div>
  );
}

const schedule = (f: FreezeView) =>
  f.rrule ? `${f.rrule} in ${f.timeZone}, ${f.durationMinutes} min each` : `${when(f.startsAt)} to ${when(f.endsAt)}`;

/** Freeze windows (one-off and recurring, with their time zone), the calendar, and the stop-the-line switch. */
export function Freezes() {
  const freezes = useQuery({
    queryKey: ['governance', 'freezes'],
    queryFn: () => ok(api.GET('/api/v2/freezes')),
  });
  const remove = useAction([['governance', 'freezes']]);
  return (
    <section aria-labelledby="freezes-heading">
      <h2 id="freezes-heading">Freeze windows</h2>
      <QueryState query={freezes}>
        {(data) => (
          <>
            <StopTheLineSwitch state={data.stopTheLine} />
            <FreezeCalendar freezes={data.items} />
            {data.items.length === 0 ? (
              <p className="empty">No freeze window.</p>
            ) : (
              <DataTable
                label="Freeze windows"
                rows={data.items}
                rowKey={(f) => f.id}
                columns={[
                  { header: 'Freeze', rowHeader: true, cell: (f) => f.name },
                  { header: 'In force', cell: (f) => (f.active ? 'active now' : 'not now') },
                  { header: 'When', cell: schedule },
                  {
                    header: 'Scope',
                    cell: (f) =>
                      [
                        f.scope === 'project' ? 'this project' : f.projects.join(', ') || 'every project',
                        f.environments.join(', ') || 'every environment',
                        f.tenants.join(', ') || 'every tenant',
                      ].join(' · '),
                  },
                  { header: 'Reason', cell: (f) => f.reason },
                  {
                    header: 'Delete',
                    cell: (f) => (
                      <ConfirmAction
                        verb="Delete"
                        name={f.name}
                        onConfirm={() =>
                          remove.run(() => ok(api.DELETE('/api/v2/freezes/{id}', { params: { path: { id: f.id } } })))
                        }
                      />
                    ),
                  },
                ]}
              />
            )}
          </>
        )}
      </QueryState>
      <ErrorNote error={remove.error} />
      <h3>Add a freeze window</h3>
      <FreezeForm />
    </section>
  );
}
