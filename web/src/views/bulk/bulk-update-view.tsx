import { useState } from 'react';
import { Button, Checkbox, CheckboxGroup, Label } from 'react-aria-components';
import { Link, useParams } from 'react-router';
import { api, ok } from '../../api/client';
import type { BulkPreview, BulkResult } from '../../api/models';
import { useProjectParts } from '../../api/project-queries';
import { Choice, optionsOf } from '../../components/choice';
import { ErrorNote, Field } from '../../components/form';
import { ProjectNav } from '../../components/project-nav';
import { UnifiedDiff } from '../../components/unified-diff';
import { WaveList } from '../../components/wave-list';
import { useAction } from '../../components/use-action';

const pairOf = (key: string) => {
  const [tenant = '', environment = ''] = key.split('/');
  return { tenant, environment };
};

function PreviewPanel({ preview }: { preview: BulkPreview }) {
  return (
    <section aria-labelledby="preview">
      <h2 id="preview">Preview: {preview.files.length} files change</h2>
      {preview.skipped.length > 0 && (
        <>
          <h3>Left out</h3>
          <ul>
            {preview.skipped.map((s) => (
              <li key={`${s.tenant}/${s.environment}`}>
                {s.tenant}/{s.environment}: {s.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {preview.freezes.length > 0 && (
        <div role="alert" className="error-note">
          Applying is refused while these freezes hold:
          <ul>
            {preview.freezes.map((f, i) => (
              <li key={i}>
                {f.name ?? 'freeze'}
                {f.reason ? ` (${f.reason})` : ''}
              </li>
            ))}
          </ul>
        </div>
      )}
      {(preview.approvalPolicies ?? []).length > 0 && (
        <div role="alert" className="error-note">
          Applying is refused by an approval policy:
          <ul>
            {preview.approvalPolicies!.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </div>
      )}
      {(preview.rollouts ?? []).map((r) => (
        <div key={r.environment}>
          <h3>
            {r.environment}: an image rollout in {r.waves.length} waves ({r.environment}&apos;s plan)
          </h3>
          <WaveList waves={r.waves} label={`${r.environment} rollout waves`} />
        </div>
      ))}
      {preview.files.map((f) => (
        <div key={f.path}>
          <h3 className="path">{f.path}</h3>
          <UnifiedDiff text={f.diff} label={f.path} />
        </div>
      ))}
    </section>
  );
}

/**
 * A workload's image tag set for chosen tenant and environment pairs: preview the files, then apply in one commit; the
 * pairs of an environment with a rollout plan move in its waves instead (an image rollout each, linked once started).
 */
export function BulkUpdateView() {
  const { slug = '' } = useParams();
  const parts = useProjectParts(slug);
  const [workload, setWorkload] = useState('');
  const [tag, setTag] = useState('');
  const [pairs, setPairs] = useState<string[]>([]);
  const [preview, setPreview] = useState<BulkPreview | null>(null);
  const [result, setResult] = useState<BulkResult | null>(null);
  const action = useAction([['project', slug]]);
  const workloads = parts.workloads.data?.items.map((w) => w.name) ?? [];
  const chosen = workload || workloads[0] || '';
  const body = () => ({ workload: chosen, tag, pairs: pairs.map(pairOf) });
  const path = { params: { path: { slug } } };
  async function runPreview() {
    setResult(null);
    const p = await action.run(() =>
      ok(api.POST('/api/v2/projects/{slug}/bulk-update/preview', { ...path, body: body() })),
    );
    setPreview(p ?? null);
  }
  async function apply() {
    const r = await action.run(() => ok(api.POST('/api/v2/projects/{slug}/bulk-update', { ...path, body: body() })));
    if (r) {
      setResult(r);
      setPreview(null);
    }
  }
  return (
    <main>
      <h1>Bulk image update</h1>
      <ProjectNav slug={slug} />
      <div className="stack">
        <Choice label="Workload" name="workload" value={chosen} onChange={setWorkload} options={optionsOf(workloads)} />
        <Field name="tag" label="New image tag" value={tag} onChange={setTag} isRequired />
        <CheckboxGroup value={pairs} onChange={setPairs} className="pairs">
          <Label>Tenant and environment pairs</Label>
          {parts.tenants.data?.items.flatMap((t) =>
            (parts.environments.data?.items ?? []).map((e) => (
              <Checkbox key={`${t.slug}/${e.environment}`} value={`${t.slug}/${e.environment}`} className="checkbox">
                <span className="box" aria-hidden="true" />
                {t.slug} / {e.environment}
              </Checkbox>
            )),
          )}
        </CheckboxGroup>
        <div className="row">
          <Button className="button" onPress={() => void runPreview()} isDisabled={action.pending}>
            Preview
          </Button>
          <Button
            className="button primary"
            onPress={() => void apply()}
            isDisabled={action.pending || !preview || preview.blocked}
          >
            {(preview?.rollouts ?? []).length > 0 ? 'Apply and start the rollouts' : 'Apply in one commit'}
          </Button>
        </div>
        <ErrorNote error={action.error} />
      </div>
      {preview && <PreviewPanel preview={preview} />}
      {result && (
        <section aria-labelledby="result" role="status">
          <h2 id="result">Applied</h2>
          {result.commit ? (
            <p>
              Commit <code>{result.commit}</code>
            </p>
          ) : (
            <p>
              {result.message ??
                ((result.rollouts ?? []).length > 0
                  ? 'No commit yet: the pairs move in their rollouts.'
                  : 'Nothing committed.')}
            </p>
          )}
          {(result.rollouts ?? []).length > 0 && (
            <ul aria-label="Rollouts started">
              {result.rollouts!.map((r) => (
                <li key={r.rolloutId}>
                  <Link to={r.links.ui}>Rollout in {r.environment}</Link>: its waves move the pairs of {r.environment}
                </li>
              ))}
            </ul>
          )}
          {result.skipped.map((s) => (
            <p key={`${s.tenant}/${s.environment}`}>
              Left out {s.tenant}/{s.environment}: {s.reason}
            </p>
          ))}
        </section>
      )}
    </main>
  );
}
