import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { Switch } from 'react-aria-components';
import { useParams, useSearchParams } from 'react-router';
import type { paths } from '../../../../client/openapi-types.generated';
import { api, messageOf, ok } from '../../api/client';
import type { CompareItem } from '../../api/models';
import { useProjectParts } from '../../api/project-queries';
import { Choice, optionsOf } from '../../components/choice';
import { ErrorNote } from '../../components/form';
import { ProjectNav } from '../../components/project-nav';
import { UnifiedDiff } from '../../components/unified-diff';

type DiffType = NonNullable<
  NonNullable<paths['/api/v2/projects/{slug}/compare']['get']['parameters']['query']>['type']
>;

/** The API's kinds of difference (the compiler checks every one has a label), named as the spec's compare view does. */
const DIFF_LABELS: Record<DiffType, string> = {
  image: 'Image tags',
  replicas: 'Replicas',
  variables: 'Variables',
  resources: 'Resources',
  'chart-versions': 'Chart versions',
  'helm-values': 'Helm values',
  overlays: 'Overlays',
  manifests: 'Manifests',
  application: 'Application',
};
const DIFF_OPTIONS = Object.entries(DIFF_LABELS).map(([value, label]) => ({ value, label }));

const show = (v: unknown) => (v === null || v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));

function ItemCard({ item, from, to }: { item: CompareItem; from: string; to: string }) {
  return (
    <article className="compare-item" aria-label={`${item.tenant} / ${item.service}`}>
      <h3>
        {item.tenant} / {item.service}
        {!item.presentIn.from && <span className="tag"> only in {to}</span>}
        {!item.presentIn.to && <span className="tag"> only in {from}</span>}
      </h3>
      {item.differences.length === 0 && <p className="muted">No difference.</p>}
      {item.differences.map((d) =>
        'diff' in d && d.diff ? (
          <div key={d.type}>
            <p className="change">
              <strong>{d.type}</strong>: {to} (current) → {from} (proposed)
            </p>
            <UnifiedDiff text={d.diff} label={`${d.type} of ${item.tenant}/${item.service}, current → proposed`} />
          </div>
        ) : (
          <p key={d.type} className="change">
            <strong>{d.type}</strong>: <code>{show('to' in d ? d.to : null)}</code> ({to}, current) →{' '}
            <code>{show('from' in d ? d.from : null)}</code> ({from}, proposed)
          </p>
        ),
      )}
    </article>
  );
}

/** The items in a virtualised list: only what is on screen is rendered, so 1,000 Applications stay responsive. */
function ItemList({ items, from, to }: { items: CompareItem[]; from: string; to: string }) {
  const parent = useRef<HTMLDivElement>(null);
  const rows = useVirtualizer({
    count: items.length,
    getScrollElement: () => parent.current,
    estimateSize: () => 120,
    overscan: 6,
  });
  return (
    <div ref={parent} className="virtual-scroll" role="region" aria-label="Differences" tabIndex={0}>
      <div style={{ height: rows.getTotalSize(), position: 'relative' }}>
        {rows.getVirtualItems().map((row) => {
          const item = items[row.index]!;
          return (
            <div
              key={row.key}
              data-index={row.index}
              ref={rows.measureElement}
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${row.start}px)` }}
            >
              <ItemCard item={item} from={from} to={to} />
            </div>
          );
        })}
      </div>
    </div>
  );
}

/**
 * Read-only comparison of two environments at the repository's main, grouped by tenant and service, drawn current ->
 * proposed like a promotion: `to` is the target as it runs now, `from` the source whose versions it would take.
 */
export function CompareView() {
  const { slug = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const parts = useProjectParts(slug);
  const envs = parts.environments.data?.items.map((e) => e.environment) ?? [];
  const from = params.get('from') ?? envs[0] ?? '';
  const to = params.get('to') ?? envs[1] ?? envs[0] ?? '';
  // Every filter lives in the address, so a reload keeps it and a link shares it (changed-only is on unless `all=1`).
  const tenant = params.get('tenant') ?? '';
  const service = params.get('service') ?? '';
  const type = params.get('type') ?? '';
  const changedOnly = params.get('all') !== '1';
  const comparison = useQuery({
    queryKey: ['project', slug, 'compare', { from, to, tenant, service, type, changedOnly }],
    enabled: from !== '' && to !== '',
    queryFn: () =>
      ok(
        api.GET('/api/v2/projects/{slug}/compare', {
          params: {
            path: { slug },
            query: {
              from,
              to,
              tenant: tenant || undefined,
              service: service || undefined,
              type: (type || undefined) as DiffType | undefined,
              changedOnly: changedOnly ? 'true' : 'false',
            },
          },
        }),
      ),
  });
  // A select then the switch can come faster than the router re-renders: each change builds on the address last
  // asked for until the rendered one catches up, or building on the rendered params would drop the first change.
  const asked = useRef<URLSearchParams | null>(null);
  useEffect(() => {
    if (asked.current?.toString() === params.toString()) asked.current = null;
  });
  const setParam = (key: 'from' | 'to' | 'tenant' | 'service' | 'type' | 'all') => (value: string) => {
    const next = new URLSearchParams(asked.current ?? params);
    if (value) next.set(key, value);
    else next.delete(key);
    asked.current = next;
    setParams(next, { replace: true });
  };
  const setChangedOnly = (on: boolean) => setParam('all')(on ? '' : '1');
  return (
    <main>
      <h1>Compare environments</h1>
      <ProjectNav slug={slug} />
      <div className="toolbar">
        <Choice
          label="Current (target, runs now)"
          name="to"
          value={to}
          onChange={setParam('to')}
          options={optionsOf(envs)}
        />
        <Choice
          label="Proposed (source)"
          name="from"
          value={from}
          onChange={setParam('from')}
          options={optionsOf(envs)}
        />
        <Choice
          label="Tenant"
          name="tenant"
          any="All tenants"
          value={tenant}
          onChange={setParam('tenant')}
          options={optionsOf(parts.tenants.data?.items.map((t) => t.slug) ?? [])}
        />
        <Choice
          label="Service"
          name="service"
          any="All services"
          value={service}
          onChange={setParam('service')}
          options={optionsOf(parts.workloads.data?.items.map((w) => w.name) ?? [])}
        />
        <Choice
          label="Difference"
          name="type"
          any="Every kind"
          value={type}
          onChange={setParam('type')}
          options={DIFF_OPTIONS}
        />
        <Switch isSelected={changedOnly} onChange={setChangedOnly} className="switch">
          <span className="indicator" aria-hidden="true" />
          Changed only
        </Switch>
      </div>
      <ErrorNote error={comparison.error ? messageOf(comparison.error) : null} />
      {comparison.data && (
        <>
          <p className="muted" role="status">
            {comparison.data.items.length} tenant and service pairs · {to} (current) → {from} (proposed)
            {comparison.data.commit && (
              <>
                {' '}
                at <code>{comparison.data.commit.slice(0, 12)}</code>
              </>
            )}
          </p>
          <ItemList items={comparison.data.items} from={from} to={to} />
        </>
      )}
    </main>
  );
}
