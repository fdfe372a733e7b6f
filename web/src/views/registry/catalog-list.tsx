import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, ok } from '../../api/client';
import { DataTable, when } from '../../components/data-table';
import { QueryState, noItems } from '../../components/query-state';
import { CatalogUpload } from './catalog-upload';
import type { Schema } from '../../api/models';

type CatalogVersion = Schema<'catalog-artifact'>;

export type CatalogKind = 'kustomize-bases' | 'manifest-bundles';

const list = (kind: CatalogKind) =>
  kind === 'kustomize-bases'
    ? api.GET('/api/v2/org-kustomize-bases', { params: { query: {} } })
    : api.GET('/api/v2/org-manifest-bundles', { params: { query: {} } });

const one = (kind: CatalogKind, artifact: string, version: string) => {
  const params = { params: { path: { artifact, version } } };
  return kind === 'kustomize-bases'
    ? api.GET('/api/v2/org-kustomize-bases/{artifact}/versions/{version}', params)
    : api.GET('/api/v2/org-manifest-bundles/{artifact}/versions/{version}', params);
};

function Files({ kind, v }: { kind: CatalogKind; v: CatalogVersion }) {
  const files = useQuery({
    queryKey: ['registry', kind, v.name, v.version],
    queryFn: () => ok(one(kind, v.name, v.version)),
  });
  return (
    <QueryState query={files}>
      {(f) => (
        <section className="card" aria-label={`Files of ${v.name} ${v.version}`}>
          <h3>
            {v.name} {v.version}
          </h3>
          {Object.entries(f.files).map(([path, content]) => (
            <details key={path}>
              <summary>
                <code>{path}</code>
              </summary>
              <pre className="json">{content}</pre>
            </details>
          ))}
        </section>
      )}
    </QueryState>
  );
}

/** Versions of the organization's kustomize bases or manifest bundles, an upload form; one version's files on demand. */
export function CatalogList({ kind, title, noun }: { kind: CatalogKind; title: string; noun: string }) {
  const [open, setOpen] = useState<CatalogVersion | null>(null);
  const versions = useQuery({ queryKey: ['registry', kind], queryFn: () => ok(list(kind)) });
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      <CatalogUpload kind={kind} noun={noun} />
      <QueryState
        query={versions}
        empty={`No ${noun} uploaded yet: upload one above, or POST /api/v2/org-${kind}.`}
        isEmpty={noItems}
      >
        {(page) => (
          <DataTable
            label={title}
            rows={page.items}
            rowKey={(v) => v.id}
            columns={[
              { header: 'Name', rowHeader: true, cell: (v) => v.name },
              { header: 'Version', cell: (v) => v.version },
              { header: 'Kubernetes', cell: (v) => v.kubernetesVersion },
              { header: 'Files', cell: (v) => `${v.fileCount} (${v.totalBytes} bytes)` },
              { header: 'Uploaded', cell: (v) => `${when(v.createdAt)} by ${v.createdBy ?? '—'}` },
              {
                header: 'Open',
                cell: (v) => (
                  <Button className="button" aria-label={`Files of ${v.name} ${v.version}`} onPress={() => setOpen(v)}>
                    Files
                  </Button>
                ),
              },
            ]}
          />
        )}
      </QueryState>
      {open && <Files kind={kind} v={open} />}
    </section>
  );
}
