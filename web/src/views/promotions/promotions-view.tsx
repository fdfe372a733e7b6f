import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Checkbox, CheckboxGroup, Label } from 'react-aria-components';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { api, messageOf, ok } from '../../api/client';
import { useProjectParts } from '../../api/project-queries';
import { Choice, optionsOf } from '../../components/choice';
import { ErrorNote } from '../../components/form';
import { ProjectNav } from '../../components/project-nav';
import { StatusBadge } from '../../components/status-badge';
import { useAction } from '../../components/use-action';
import { RolloutWaves } from './rollout-waves';

function Options({
  label,
  values,
  chosen,
  onChange,
}: {
  label: string;
  values: string[];
  chosen: string[];
  onChange: (v: string[]) => void;
}) {
  return (
    <CheckboxGroup value={chosen} onChange={onChange} className="pairs">
      <Label>{label}</Label>
      {values.map((v) => (
        <Checkbox key={v} value={v} className="checkbox">
          <span className="box" aria-hidden="true" />
          {v}
        </Checkbox>
      ))}
    </CheckboxGroup>
  );
}

/** Request a promotion (what moves is previewed from the image differences) and list the project's promotions. */
export function PromotionsView() {
  const { slug = '' } = useParams();
  const navigate = useNavigate();
  const parts = useProjectParts(slug);
  const envs = parts.environments.data?.items.map((e) => e.environment) ?? [];
  // Prefilled from the address (the pipeline picture's Promote link: ?source=&target=&service=).
  const [search] = useSearchParams();
  const [source, setSource] = useState(search.get('source') ?? '');
  const [target, setTarget] = useState(search.get('target') ?? '');
  const [tenants, setTenants] = useState<string[]>([]);
  const [services, setServices] = useState<string[]>(search.getAll('service'));
  const from = source || envs[0] || '';
  const to = target || envs[1] || '';
  const path = { slug };
  const list = useQuery({
    queryKey: ['project', slug, 'promotions'],
    refetchInterval: 3000,
    queryFn: () => ok(api.GET('/api/v2/projects/{slug}/promotions', { params: { path, query: {} } })),
  });
  const moves = useQuery({
    queryKey: ['project', slug, 'compare', { from, to, type: 'image' }],
    enabled: from !== '' && to !== '' && from !== to,
    queryFn: () =>
      ok(api.GET('/api/v2/projects/{slug}/compare', { params: { path, query: { from, to, type: 'image' } } })),
  });
  const body = {
    sourceEnvironment: from,
    targetEnvironment: to,
    ...(tenants.length > 0 ? { tenants } : {}),
    ...(services.length > 0 ? { services } : {}),
  };
  // The waves the request would follow over the target's rollout plan (the server's preview; nothing changes).
  const preview = useQuery({
    queryKey: ['project', slug, 'promotion-preview', body],
    enabled: from !== '' && to !== '' && from !== to,
    retry: false,
    queryFn: () => ok(api.POST('/api/v2/projects/{slug}/promotion/preview', { params: { path }, body })),
  });
  const request = useAction([['project', slug, 'promotions']]);
  const moving = (moves.data?.items ?? []).filter(
    (i) =>
      (tenants.length === 0 || tenants.includes(i.tenant)) && (services.length === 0 || services.includes(i.service)),
  );
  async function submit() {
    const made = await request.run(() =>
      ok(api.POST('/api/v2/projects/{slug}/promotion/request', { params: { path }, body })),
    );
    // A target with a rollout plan answers the rollout the request started (its waves), else the promotion.
    if (made) void navigate('rolloutId' in made ? made.links.ui : `/promotions/${made.id}`);
  }
  return (
    <main>
      <h1>Promotions</h1>
      <ProjectNav slug={slug} />
      <section aria-labelledby="request" className="stack">
        <h2 id="request">Request a promotion</h2>
        <div className="toolbar">
          <Choice label="Source" name="source" value={from} onChange={setSource} options={optionsOf(envs)} />
          <Choice label="Target" name="target" value={to} onChange={setTarget} options={optionsOf(envs)} />
        </div>
        <Options
          label="Tenants (none chosen: all)"
          values={parts.tenants.data?.items.map((t) => t.slug) ?? []}
          chosen={tenants}
          onChange={setTenants}
        />
        <Options
          label="Services (none chosen: all)"
          values={parts.workloads.data?.items.map((w) => w.name) ?? []}
          chosen={services}
          onChange={setServices}
        />
        <h3>What moves (now → after)</h3>
        {moving.length === 0 ? (
          <p>
            Nothing differs: {to} already runs the versions of {from}.
          </p>
        ) : (
          <ul aria-label="What moves">
            {moving.map((i) => (
              <li key={`${i.tenant}/${i.service}`}>
                {i.tenant} / {i.service}:{' '}
                {/* compare's `to` (the target) is current, `from` (the source) proposed: read now → after */}
                {i.differences.map((d) => ('from' in d ? `${String(d.to)} → ${String(d.from)}` : '')).join(' ')}
              </li>
            ))}
          </ul>
        )}
        <RolloutWaves preview={preview.data} target={to} />
        <ErrorNote error={request.error} />
        <Button className="button primary" onPress={() => void submit()} isDisabled={request.pending}>
          Request promotion
        </Button>
      </section>
      <h2>Recent promotions</h2>
      <ErrorNote error={list.error ? messageOf(list.error) : null} />
      <ul className="cards">
        {list.data?.items.map((m) => (
          <li key={m.id} className="card">
            <Link to={`/promotions/${m.id}`}>
              {m.sourceEnvironment ?? 'image'} → {m.targetEnvironment}
            </Link>{' '}
            <StatusBadge status={m.status} /> <span className="muted">by {m.createdBy}</span>
          </li>
        ))}
      </ul>
    </main>
  );
}
