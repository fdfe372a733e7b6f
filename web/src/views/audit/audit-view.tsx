import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Switch } from 'react-aria-components';
import { Link, useSearchParams } from 'react-router';
import { api, ok } from '../../api/client';
import type { Project } from '../../api/models';
import { useAllProjects } from '../../api/org-queries';
import type { AuditFilters } from '../../api/request-schemas';
import { DataTable, when } from '../../components/data-table';
import { QueryState, noItems } from '../../components/query-state';
import { StatusBadge } from '../../components/status-badge';
import { AuditFilterForm } from './audit-filters';
import { AuditResource } from './audit-resource';
import { ChainStatus } from './chain-status';
import type { Item } from '../../api/models';

export type AuditRow = Item<'audit-log-list'>;

const PAGE = '25';

/** The filters an address may carry (anything else in it is not sent: a stray parameter would be refused). */
const FILTER_KEYS: readonly (keyof AuditFilters)[] = [
  'from',
  'to',
  'action',
  'actor',
  'actorType',
  'resourceType',
  'resourceId',
  'projectId',
  'status',
  'category',
  'breakGlassSessionId',
];

function AuditDetails({ entry, projects }: { entry: AuditRow; projects: Project[] }) {
  const project = projects.find((p) => p.id === entry.projectId);
  return (
    <div className="details" aria-label={`Details of ${entry.action}`}>
      <dl className="facts">
        <dt>Category</dt>
        <dd>{entry.category}</dd>
        <dt>Resource</dt>
        <dd>
          <AuditResource entry={entry} projects={projects} /> {entry.resourceId && <code>{entry.resourceId}</code>}
        </dd>
        <dt>Project</dt>
        <dd>{project ? <Link to={`/projects/${project.slug}`}>{project.name}</Link> : '—'}</dd>
        <dt>Git commit</dt>
        <dd>
          {entry.gitCommitSha && project ? (
            <Link to={`/projects/${project.slug}?commit=${entry.gitCommitSha}`}>{entry.gitCommitSha.slice(0, 12)}</Link>
          ) : (
            (entry.gitCommitSha ?? '—')
          )}
        </dd>
        <dt>Workflow</dt>
        <dd>{entry.workflowId ?? '—'}</dd>
        <dt>Request</dt>
        <dd>{entry.requestId ?? '—'}</dd>
      </dl>
      <pre className="json">{JSON.stringify(entry.details, null, 2)}</pre>
    </div>
  );
}

/**
 * The organization's audit log: every spec filter, cursor pages (newest first), each entry's details with its commit
 * linked to the project, and the IAM categories on their own (GET /api/v2/iam/audit-events).
 */
export function AuditView() {
  // The filters live in the address: a reload keeps them and a link shares them (`?category=break_glass&iam=1`).
  const [search, setSearch] = useSearchParams();
  const filters = Object.fromEntries(
    FILTER_KEYS.flatMap((k) => (search.get(k) ? [[k, search.get(k)]] : [])),
  ) as AuditFilters;
  const iamOnly = search.get('iam') === '1';
  const [cursors, setCursors] = useState<string[]>([]);
  const [open, setOpen] = useState<string | null>(null);
  const show = (next: AuditFilters, iamNext: boolean) => {
    const params = Object.entries(next).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '');
    setSearch(new URLSearchParams([...params, ...(iamNext ? [['iam', '1']] : [])]));
    setCursors([]);
  };
  const cursor = cursors.at(-1);
  const projects = useAllProjects();
  const entries = useQuery({
    queryKey: ['audit', iamOnly, filters, cursor],
    queryFn: () => {
      const query = { ...filters, limit: PAGE, cursor };
      return ok(
        iamOnly
          ? api.GET('/api/v2/iam/audit-events', { params: { query } })
          : api.GET('/api/v2/audit-logs', { params: { query } }),
      );
    },
  });
  const projectList = projects.data?.items ?? [];
  return (
    <main>
      <h1>Audit log</h1>
      <p className="muted">
        Every change, newest first. The log is append-only and hash-chained per organization: verify the chain below.
      </p>
      <ChainStatus />
      <AuditFilterForm projects={projectList} value={filters} onApply={(f) => show(f, iamOnly)} />
      <Switch className="switch" isSelected={iamOnly} onChange={(on) => show(filters, on)}>
        <span className="indicator" aria-hidden="true" />
        IAM events only (members, roles, service accounts, API keys, break-glass, sign-ins)
      </Switch>
      <QueryState query={entries} empty="No audit entry matches these filters." isEmpty={noItems}>
        {(page) => (
          <>
            <DataTable
              label="Audit entries"
              rows={page.items}
              rowKey={(e) => e.id}
              columns={[
                { header: 'Time', cell: (e) => when(e.createdAt) },
                { header: 'Event', rowHeader: true, cell: (e) => e.action },
                { header: 'Actor', cell: (e) => `${e.actor} (${e.actorType})` },
                { header: 'Resource', cell: (e) => <AuditResource entry={e} projects={projectList} /> },
                { header: 'Status', cell: (e) => <StatusBadge status={e.status} /> },
                {
                  header: 'Details',
                  cell: (e) => (
                    <>
                      <Button
                        className="button"
                        aria-expanded={open === e.id}
                        onPress={() => setOpen(open === e.id ? null : e.id)}
                      >
                        {open === e.id ? 'Hide' : 'Show'} details
                      </Button>
                      {open === e.id && <AuditDetails entry={e} projects={projectList} />}
                    </>
                  ),
                },
              ]}
            />
            <div className="pager">
              <Button
                className="button"
                isDisabled={cursors.length === 0}
                onPress={() => setCursors(cursors.slice(0, -1))}
              >
                Newer
              </Button>
              <Button
                className="button"
                isDisabled={!page.nextCursor}
                onPress={() => page.nextCursor && setCursors([...cursors, page.nextCursor])}
              >
                Older
              </Button>
            </div>
          </>
        )}
      </QueryState>
    </main>
  );
}
