import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api/client';
import { DataTable } from '../../components/data-table';
import { QueryState, noItems } from '../../components/query-state';
import { ChartUpload } from './chart-upload';

/** Helm charts of the organization's registry: each version with its app version, description and values schema. */
export function Charts() {
  const charts = useQuery({
    queryKey: ['registry', 'charts'],
    queryFn: () => ok(api.GET('/api/v2/org-charts')),
  });
  return (
    <section aria-labelledby="charts-heading">
      <h2 id="charts-heading">Helm charts</h2>
      <ChartUpload />
      <QueryState
        query={charts}
        empty="No chart pushed yet: push one above, or helm push to this registry."
        isEmpty={noItems}
      >
        {(page) =>
          page.items.map((c) => (
            <div key={c.name} className="card">
              <h3>{c.name}</h3>
              <DataTable
                label={`Versions of ${c.name}`}
                rows={c.versions}
                rowKey={(v) => v.version}
                columns={[
                  { header: 'Version', rowHeader: true, cell: (v) => v.version },
                  { header: 'App version', cell: (v) => v.appVersion ?? '—' },
                  { header: 'Description', cell: (v) => v.description ?? '—' },
                  {
                    header: 'Values schema',
                    cell: (v) =>
                      v.valuesSchema ? (
                        <details>
                          <summary>values.schema.json</summary>
                          <pre className="json">{JSON.stringify(v.valuesSchema, null, 2)}</pre>
                        </details>
                      ) : (
                        'none'
                      ),
                  },
                ]}
              />
            </div>
          ))
        }
      </QueryState>
    </section>
  );
}
