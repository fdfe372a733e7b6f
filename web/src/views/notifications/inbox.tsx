import { useQuery } from '@tanstack/react-query';
import { Button } from 'react-aria-components';
import { api, ok } from '../../api/client';
import { DataTable, when } from '../../components/data-table';
import { ErrorNote } from '../../components/form';
import { QueryState, noItems } from '../../components/query-state';
import { useAction } from '../../components/use-action';

/** The signed-in member's in-app notifications, newest first; read one or all. */
export function Inbox() {
  const inbox = useQuery({
    queryKey: ['notifications', 'inbox'],
    refetchInterval: 5000,
    queryFn: () => ok(api.GET('/api/v2/notifications', { params: { query: {} } })),
  });
  const action = useAction([['notifications']]);
  return (
    <section aria-labelledby="inbox-heading">
      <h2 id="inbox-heading">Inbox</h2>
      <Button className="button" onPress={() => void action.run(() => ok(api.POST('/api/v2/notifications/read-all')))}>
        Mark all read
      </Button>
      <ErrorNote error={action.error} />
      <QueryState query={inbox} empty="No notifications yet." isEmpty={noItems}>
        {(page) => (
          <DataTable
            label="Notifications"
            rows={page.items}
            rowKey={(n) => n.id}
            columns={[
              { header: 'Time', cell: (n) => when(n.createdAt) },
              { header: 'Notification', rowHeader: true, cell: (n) => (n.read ? n.title : <strong>{n.title}</strong>) },
              { header: 'Event', cell: (n) => <code>{n.event}</code> },
              {
                header: 'Read',
                cell: (n) =>
                  n.read ? (
                    'read'
                  ) : (
                    <Button
                      className="button"
                      aria-label={`Mark read: ${n.title}`}
                      onPress={() =>
                        void action.run(() =>
                          ok(api.POST('/api/v2/notifications/{id}/read', { params: { path: { id: n.id } } })),
                        )
                      }
                    >
                      Mark read
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
