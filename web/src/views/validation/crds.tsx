import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, ok } from '../../api/client';
import { ConfirmAction } from '../../components/confirm-action';
import { DataTable, when } from '../../components/data-table';
import { ErrorNote } from '../../components/form';
import { PlanNote, useFeatureEnabled } from '../../components/plan-note';
import { QueryState, noItems } from '../../components/query-state';
import { useAction } from '../../components/use-action';

/** The organization's CustomResourceDefinitions (Enterprise): register one from YAML, remove one. */
export function Crds() {
  const enabled = useFeatureEnabled('crd_upload');
  const [text, setText] = useState('');
  const crds = useQuery({
    queryKey: ['k8s', 'crds'],
    queryFn: () => ok(api.GET('/api/v2/k8s/crds')),
  });
  const action = useAction([['k8s']]);
  return (
    <section aria-labelledby="crds-heading">
      <h2 id="crds-heading">Custom resource definitions</h2>
      <PlanNote feature="crd_upload" what="Custom resource definitions" />
      {enabled && (
        <div className="stack">
          <div className="field">
            <label htmlFor="crd-yaml">CustomResourceDefinition (YAML)</label>
            <textarea
              id="crd-yaml"
              rows={10}
              value={text}
              onChange={(e) => setText(e.target.value)}
              spellCheck={false}
            />
          </div>
          <Button
            className="button primary"
            isDisabled={action.pending || text.trim() === ''}
            onPress={() =>
              void action.run(async () => {
                await ok(api.POST('/api/v2/k8s/crd', { body: { yaml: text } }));
                setText('');
              })
            }
          >
            Register CRD
          </Button>
          <ErrorNote error={action.error} />
        </div>
      )}
      <QueryState query={crds} empty="No custom resource definition registered." isEmpty={noItems}>
        {(page) => (
          <DataTable
            label="Registered CRDs"
            rows={page.items}
            rowKey={(c) => c.id}
            columns={[
              { header: 'Name', rowHeader: true, cell: (c) => c.name },
              { header: 'Kind', cell: (c) => c.kind },
              { header: 'Versions', cell: (c) => c.versions.map((v) => `${c.group}/${v}`).join(', ') },
              { header: 'Registered', cell: (c) => when(c.createdAt) },
              {
                header: 'Remove',
                cell: (c) => (
                  <ConfirmAction
                    verb="Remove"
                    name={c.name}
                    onConfirm={() =>
                      action.run(() => ok(api.DELETE('/api/v2/k8s/crds/{id}', { params: { path: { id: c.id } } })))
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
