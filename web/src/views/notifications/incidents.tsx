import { useQuery } from '@tanstack/react-query';
import { Button } from 'react-aria-components';
import { api, ok } from '../../api/client';
import { DataTable, when } from '../../components/data-table';
import { ErrorNote } from '../../components/form';
import { PlanNote, useFeatureEnabled } from '../../components/plan-note';
import { QueryState, noItems } from '../../components/query-state';
import { StatusBadge } from '../../components/status-badge';
import { useAction } from '../../components/use-action';
import { EscalationPolicies } from './escalation-policies';

/** Escalation policies (Pro) and their incidents: acknowledge stops the escalation, resolve closes it. */
export function Escalations() {
  const enabled = useFeatureEnabled('escalation_policies');
  const policies = useQuery({
    queryKey: ['notifications', 'escalation-policies'],
    enabled,
    queryFn: () => ok(api.GET('/api/v2/notifications/escalation-policies')),
  });
  const incidents = useQuery({
    queryKey: ['notifications', 'incidents'],
    enabled,
    refetchInterval: 5000,
    queryFn: () => ok(api.GET('/api/v2/notifications/incidents')),
  });
  const action = useAction([['notifications', 'incidents']]);
  const names = new Map(policies.data?.items.map((p) => [p.id, p.name]));
  const act = (id: string, what: 'acknowledge' | 'resolve') =>
    void action.run(() =>
      ok(
        what === 'acknowledge'
          ? api.POST('/api/v2/notifications/incidents/{id}/acknowledge', { params: { path: { id } } })
          : api.POST('/api/v2/notifications/incidents/{id}/resolve', { params: { path: { id } } }),
      ),
    );
  return (
    <section aria-labelledby="escalation-heading">
      <h2 id="escalation-heading">Escalation policies and incidents</h2>
      <PlanNote feature="escalation_policies" what="Escalation policies" />
      {enabled && (
        <>
          <EscalationPolicies query={policies} />
          <h3>Incidents</h3>
          <ErrorNote error={action.error} />
          <QueryState query={incidents} empty="No incident." isEmpty={noItems}>
            {(page) => (
              <DataTable
                label="Incidents"
                rows={page.items}
                rowKey={(i) => i.id}
                columns={[
                  { header: 'Opened', cell: (i) => when(i.createdAt) },
                  { header: 'Policy', rowHeader: true, cell: (i) => names.get(i.policyId) ?? i.policyId },
                  { header: 'Status', cell: (i) => <StatusBadge status={i.status} /> },
                  { header: 'Events', cell: (i) => i.eventCount },
                  {
                    header: 'Action',
                    cell: (i) =>
                      i.status === 'resolved' ? (
                        '—'
                      ) : (
                        <>
                          {i.status === 'open' && (
                            <Button className="button" onPress={() => act(i.id, 'acknowledge')}>
                              Acknowledge
                            </Button>
                          )}
                          <Button className="button" onPress={() => act(i.id, 'resolve')}>
                            Resolve
                          </Button>
                        </>
                      ),
                  },
                ]}
              />
            )}
          </QueryState>
        </>
      )}
    </section>
  );
}
