import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { Link, useParams } from 'react-router';
import { api, messageOf, ok } from '../../api/client';
import type { WatchDiscovery, WatchSubscription } from '../../api/models';
import { useProjectParts } from '../../api/project-queries';
import { when } from '../../components/data-table';
import { EditableList } from '../../components/editable-list';
import type { FieldValues } from '../../components/field-form';
import { ErrorNote } from '../../components/form';
import { ProjectNav } from '../../components/project-nav';
import { QueryState } from '../../components/query-state';

type Policy = WatchSubscription['policy'];
/** The policy a new subscription sends: one of the three kinds, with its own fields. */
type PolicyBody =
  | { kind: 'semver'; range: string; includePrerelease: boolean }
  | { kind: 'regex'; pattern: string; order: 'alphabetical' | 'numeric' | 'created' }
  | { kind: 'digest'; tag: string };

/** A policy in words: `semver >=1.0.0 <2.0.0`, `regex ^b([0-9]+)$ (numeric)`, `digest of stable`. */
export function policyText(policy: Policy): string {
  if (policy.kind === 'semver') return `semver ${policy.range}${policy.includePrerelease ? ' with pre-releases' : ''}`;
  if (policy.kind === 'regex') return `regex ${policy.pattern} (${policy.order})`;
  return `digest of ${policy.tag}`;
}

const listOf = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

function policyOf(values: FieldValues): PolicyBody {
  const value = values.value ?? '';
  if (values.kind === 'regex') {
    return {
      kind: 'regex',
      pattern: value,
      order: (values.order || 'alphabetical') as 'alphabetical' | 'numeric' | 'created',
    };
  }
  if (values.kind === 'digest') return { kind: 'digest', tag: value };
  return { kind: 'semver', range: value, includePrerelease: values.prerelease === 'on' };
}

/** What a target's state means to a person reading "why not deployed". */
const STATE_WORDS: Record<string, string> = {
  verified: 'verified (Synced and Healthy)',
  syncing: 'committed, waiting for the controller',
  replaced: 'replaced by a later commit before it was verified',
  held: 'held by a freeze, applied when it ends',
  pinned: 'not updated: pinned',
  frozen: 'not updated: frozen',
  superseded: 'not updated: a newer version went instead',
};

function DiscoveryRows({ d }: { d: WatchDiscovery }) {
  const version = `${d.repository}:${d.tag}`;
  if (d.outcomes.length === 0) {
    return (
      <tr>
        <td>{when(d.foundAt)}</td>
        <th scope="row">{version}</th>
        <td colSpan={5}>{d.status === 'pending' ? 'being evaluated' : d.status}</td>
      </tr>
    );
  }
  return (
    <>
      {d.outcomes.map((o) => (
        <tr key={`${d.id}/${o.subscriptionId}`} data-discovery={`${d.tag}/${o.workload}`}>
          <td>{when(d.foundAt)}</td>
          <th scope="row">{version}</th>
          <td>{o.workload}</td>
          <td>{o.kind}</td>
          <td>{o.result === 'not-chosen' ? `not chosen (the policy prefers ${o.chosen ?? 'none'})` : o.result}</td>
          <td>
            {o.targets.length === 0 && !o.rollouts ? (
              '—'
            ) : (
              <ul className="plain">
                {o.targets.map((t) => (
                  <li key={`${t.tenant}/${t.environment}`} data-target={`${t.tenant}/${t.environment}`}>
                    {t.tenant}/{t.environment}: {STATE_WORDS[t.state] ?? t.state}
                    {t.detail ? ` (${t.detail})` : ''}
                  </li>
                ))}
                {(o.rollouts ?? []).map((r) => (
                  <li key={r.rolloutId} data-target={`*/${r.environment}`}>
                    {r.environment}: <Link to={`/rollouts/${r.rolloutId}`}>in a rollout</Link>, wave by wave (its plan)
                  </li>
                ))}
              </ul>
            )}
            {o.error && <p className="field-error">{o.error}</p>}
          </td>
          <td>{o.result === 'not-chosen' || o.recordedOnly.length === 0 ? '—' : o.recordedOnly.join(', ')}</td>
        </tr>
      ))}
    </>
  );
}

/**
 * New versions found by policy (docs/automation.md): the project's watch subscriptions (add, delete) and the versions
 * found, newest first, each target verified, syncing, replaced or why it was not updated.
 */
export function WatchView() {
  const { slug = '' } = useParams();
  const { workloads, environments } = useProjectParts(slug);
  const [workload, setWorkload] = useState('');
  const subscriptions = useQuery({
    queryKey: ['project', slug, 'watch', 'subscriptions'],
    queryFn: () => ok(api.GET('/api/v2/projects/{slug}/watch/subscriptions', { params: { path: { slug } } })),
  });
  const discoveries = useInfiniteQuery({
    queryKey: ['project', slug, 'watch', 'discoveries', workload],
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page: { nextCursor: string | null }) => page.nextCursor ?? undefined,
    refetchInterval: 5000,
    queryFn: ({ pageParam }) =>
      ok(
        api.GET('/api/v2/projects/{slug}/watch/discoveries', {
          params: { path: { slug }, query: { limit: '20', ...(workload ? { workload } : {}), cursor: pageParam } },
        }),
      ),
  });
  const names = (workloads.data?.items ?? []).map((w) => w.name);
  const envs = (environments.data?.items ?? []).map((e) => e.environment);
  const found = discoveries.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <main>
      <h1>Automation</h1>
      <ProjectNav slug={slug} />
      <section aria-labelledby="subscriptions">
        <h2 id="subscriptions">Watch subscriptions</h2>
        <p className="muted">
          A workload follows a repository: a new version its policy chooses is committed through the governed path
          (pins, freezes, approvals) in the environments listed; elsewhere it is only recorded.
        </p>
        <QueryState query={subscriptions}>
          {(page) => (
            <EditableList
              noun="subscription"
              label="Watch subscriptions"
              empty="No workload follows a repository yet."
              rows={page.items}
              rowKey={(s) => s.id}
              nameOf={(s) => s.workload}
              columns={[
                { header: 'Workload', rowHeader: true, cell: (s) => s.workload },
                { header: 'Kind', cell: (s) => s.kind },
                { header: 'Repository', cell: (s) => (s.registry ? `${s.registry}: ${s.repository}` : s.repository) },
                { header: 'Policy', cell: (s) => <code>{policyText(s.policy)}</code> },
                { header: 'Updates', cell: (s) => s.environments.join(', ') },
                { header: 'Tenants', cell: (s) => (s.tenants.length > 0 ? s.tenants.join(', ') : 'all') },
              ]}
              fields={[
                {
                  name: 'workload',
                  label: 'Workload',
                  kind: 'choice',
                  required: true,
                  options: names.map((n) => ({ value: n, label: n })),
                },
                {
                  name: 'repository',
                  label: 'Repository (organization registry path, e.g. shop/web)',
                  required: true,
                  paths: ['repository.name'],
                },
                {
                  name: 'registry',
                  label: 'External registry (blank: the organization registry)',
                  paths: ['repository.registry'],
                },
                {
                  name: 'kind',
                  label: 'Policy',
                  kind: 'choice',
                  required: true,
                  options: [
                    { value: 'semver', label: 'highest in a semver range' },
                    { value: 'regex', label: 'last tag matching a pattern' },
                    { value: 'digest', label: 'digest of a mutable tag' },
                  ],
                },
                {
                  name: 'value',
                  label: 'Range, pattern or tag',
                  required: true,
                  paths: ['policy.range', 'policy.pattern', 'policy.tag', 'policy'],
                  placeholder: '>=1.0.0 <2.0.0',
                },
                {
                  name: 'order',
                  label: 'Order (pattern)',
                  kind: 'choice',
                  options: [
                    { value: 'alphabetical', label: 'alphabetical' },
                    { value: 'numeric', label: 'numeric' },
                    { value: 'created', label: 'newest image (its created time)' },
                  ],
                },
                { name: 'prerelease', label: 'Pre-releases count (semver)', kind: 'checkbox' },
                {
                  name: 'chart',
                  label: 'Chart version follows (a chart-based workload; not digest), not the image',
                  kind: 'checkbox',
                },
                {
                  name: 'environments',
                  label: `Environments updated (of ${envs.join(', ')})`,
                  required: true,
                  paths: ['environments'],
                  check: (v) => {
                    const unknown = listOf(v).filter((e) => !envs.includes(e));
                    return unknown.length > 0 ? `not environments of the project: ${unknown.join(', ')}` : null;
                  },
                },
                { name: 'tenants', label: 'Tenants (blank: all)', paths: ['tenants'] },
              ]}
              create={(values) =>
                ok(
                  api.POST('/api/v2/projects/{slug}/watch/subscriptions', {
                    params: { path: { slug } },
                    body: {
                      workload: values.workload ?? '',
                      ...(values.chart === 'on' ? { kind: 'chart' as const } : {}),
                      repository: values.registry
                        ? { source: 'external', registry: values.registry, name: values.repository ?? '' }
                        : { source: 'platform', name: values.repository ?? '' },
                      policy: policyOf(values),
                      environments: listOf(values.environments) as [string, ...string[]],
                      ...(values.tenants ? { tenants: listOf(values.tenants) } : {}),
                    },
                  }),
                )
              }
              remove={(s) =>
                ok(
                  api.DELETE('/api/v2/projects/{slug}/watch/subscriptions/{id}', {
                    params: { path: { slug, id: s.id } },
                  }),
                )
              }
              invalidate={[['project', slug, 'watch']]}
            />
          )}
        </QueryState>
      </section>
      <section aria-labelledby="discoveries">
        <h2 id="discoveries">Versions found</h2>
        <label>
          Workload{' '}
          <select value={workload} onChange={(e) => setWorkload(e.target.value)}>
            <option value="">all</option>
            {names.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <ErrorNote error={discoveries.error ? messageOf(discoveries.error) : null} />
        {discoveries.data && found.length === 0 && <p className="empty">Nothing found yet.</p>}
        {found.length > 0 && (
          <table className="list" aria-label="Versions found">
            <thead>
              <tr>
                <th scope="col">Found</th>
                <th scope="col">Version</th>
                <th scope="col">Workload</th>
                <th scope="col">Kind</th>
                <th scope="col">Result</th>
                <th scope="col">Targets</th>
                <th scope="col">Only recorded in</th>
              </tr>
            </thead>
            <tbody>
              {found.map((d) => (
                <DiscoveryRows key={d.id} d={d} />
              ))}
            </tbody>
          </table>
        )}
        {discoveries.hasNextPage && (
          <Button className="button" onPress={() => void discoveries.fetchNextPage()}>
            Older versions
          </Button>
        )}
      </section>
    </main>
  );
}
