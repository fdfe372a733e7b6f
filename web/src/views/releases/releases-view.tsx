import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { paths } from '../../../../client/openapi-types.generated';
import { api, messageOf, ok } from '../../api/client';
import { useProjectParts } from '../../api/project-queries';
import { Choice, optionsOf } from '../../components/choice';
import { ErrorNote } from '../../components/form';
import { ProjectNav } from '../../components/project-nav';
import { StatusBadge } from '../../components/status-badge';

type ReleaseStatus = NonNullable<
  NonNullable<paths['/api/v2/projects/{slug}/releases']['get']['parameters']['query']>['status']
>;

const STATUSES: ReleaseStatus[] = [
  'Validating',
  'PendingApproval',
  'AwaitingDeploy',
  'Queued',
  'Deploying',
  'Syncing',
  'Healthy',
  'Failed',
  'Blocked',
  'Rejected',
  'Cancelled',
  'Expired',
];

export function ReleasesView() {
  const { slug = '' } = useParams();
  const parts = useProjectParts(slug);
  const [environment, setEnvironment] = useState('');
  const [tenantId, setTenantId] = useState('');
  const [status, setStatus] = useState<ReleaseStatus | ''>('');
  const releases = useQuery({
    queryKey: ['project', slug, 'releases', { environment, tenantId, status }],
    refetchInterval: 3000,
    queryFn: () =>
      ok(
        api.GET('/api/v2/projects/{slug}/releases', {
          params: {
            path: { slug },
            query: {
              environment: environment || undefined,
              tenantId: tenantId || undefined,
              status: status || undefined,
            },
          },
        }),
      ),
  });
  return (
    <main>
      <h1>Releases of {parts.project.data?.name ?? slug}</h1>
      <ProjectNav slug={slug} />
      <div className="toolbar">
        <Choice
          label="Environment"
          name="environment"
          any="All environments"
          value={environment}
          onChange={setEnvironment}
          options={optionsOf(parts.environments.data?.items.map((e) => e.environment) ?? [])}
        />
        <Choice
          label="Tenant"
          name="tenant"
          any="All tenants"
          value={tenantId}
          onChange={setTenantId}
          options={parts.tenants.data?.items.map((t) => ({ value: t.id, label: t.name })) ?? []}
        />
        <Choice
          label="Status"
          name="status"
          any="Any status"
          value={status}
          onChange={(v) => setStatus(v as ReleaseStatus | '')}
          options={optionsOf(STATUSES)}
        />
        <Link className="button primary" to={`/projects/${slug}/releases/new`}>
          New release
        </Link>
      </div>
      <ErrorNote error={releases.error ? messageOf(releases.error) : null} />
      <table className="list" aria-label="Releases">
        <thead>
          <tr>
            <th scope="col">Release</th>
            <th scope="col">Tenant</th>
            <th scope="col">Environment</th>
            <th scope="col">Status</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {releases.data?.items.map((r) => (
            <tr key={r.id}>
              <td>
                <Link to={`/releases/${r.id}`}>{r.title ?? r.id}</Link>
              </td>
              <td>{r.tenant}</td>
              <td>{r.environment}</td>
              <td>
                <StatusBadge status={r.status} />
              </td>
              <td>{r.createdAt ? new Date(r.createdAt).toLocaleString() : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {releases.data?.items.length === 0 && <p>No release matches.</p>}
    </main>
  );
}
