import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, ok } from '../../api/client';
import { Choice, optionsOf } from '../../components/choice';
import { DataTable } from '../../components/data-table';
import { Field } from '../../components/form';
import { QueryState } from '../../components/query-state';
import type { SchemaField } from './models';
import { useK8sVersions } from './playground';

function FieldNode({ field }: { field: SchemaField }) {
  const type = field.itemType ? `${field.type} of ${field.itemType}` : field.type;
  const facts = (
    <>
      <code>{field.name}</code>
      {field.required && <span className="required"> required</span>} <span className="muted">{type}</span>
      {field.enum && <span className="muted"> · one of {field.enum.map(String).join(', ')}</span>}
      {field.default !== undefined && <span className="muted"> · default {JSON.stringify(field.default)}</span>}
      {field.recursive && <span className="muted"> · (refers back to an outer object)</span>}
    </>
  );
  if (!field.fields?.length) {
    return (
      <li>
        {facts}
        {field.description && <p className="muted">{field.description}</p>}
      </li>
    );
  }
  return (
    <li>
      <details>
        <summary>{facts}</summary>
        {field.description && <p className="muted">{field.description}</p>}
        <ul className="tree">
          {field.fields.map((f) => (
            <FieldNode key={f.name} field={f} />
          ))}
        </ul>
      </details>
    </li>
  );
}

function Tree({ gvk, version }: { gvk: string; version: string }) {
  const tree = useQuery({
    queryKey: ['k8s', 'schema', gvk, version],
    queryFn: () =>
      ok(
        api.GET('/api/v2/k8s/resources/{gvk}/schema', { params: { path: { gvk }, query: version ? { version } : {} } }),
      ),
  });
  return (
    <QueryState query={tree}>
      {(t) => (
        <section aria-label={`Fields of ${t.kind}`} className="card">
          <h3>
            {t.kind} <span className="muted">{t.apiVersion}</span>
          </h3>
          <p className="muted">{t.description}</p>
          <ul className="tree">
            {t.fields.map((f) => (
              <FieldNode key={f.name} field={f} />
            ))}
          </ul>
        </section>
      )}
    </QueryState>
  );
}

/** Resources of a Kubernetes version (with the organization's custom ones), and the field tree of one. */
export function SchemaBrowser() {
  const versions = useK8sVersions();
  const [version, setVersion] = useState('');
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const resources = useQuery({
    queryKey: ['k8s', 'resources', version],
    queryFn: () => ok(api.GET('/api/v2/k8s/resources', { params: { query: version ? { version } : {} } })),
  });
  return (
    <section aria-labelledby="schemas-heading">
      <h2 id="schemas-heading">Schema browser</h2>
      <div className="row">
        <Choice
          label="Kubernetes version"
          name="schema-version"
          value={version}
          any="Newest"
          onChange={setVersion}
          options={optionsOf(versions.data?.versions ?? [])}
        />
        <Field label="Find a kind" value={filter} onChange={setFilter} />
      </div>
      {open && <Tree gvk={open} version={version} />}
      <QueryState query={resources}>
        {(r) => (
          <DataTable
            label={`Resources of Kubernetes ${r.version}`}
            rows={r.resources.filter((e) => e.kind.toLowerCase().includes(filter.toLowerCase()))}
            rowKey={(e) => e.gvk}
            columns={[
              {
                header: 'Kind',
                rowHeader: true,
                cell: (e) => (
                  <Button className="link-button" onPress={() => setOpen(e.gvk)}>
                    {e.kind}
                  </Button>
                ),
              },
              { header: 'API Version', cell: (e) => e.apiVersion },
              { header: 'Description', cell: (e) => <span className="clip">{e.description}</span> },
              { header: 'Origin', cell: (e) => (e.custom ? 'custom (CRD)' : 'built in') },
            ]}
          />
        )}
      </QueryState>
    </section>
  );
}
