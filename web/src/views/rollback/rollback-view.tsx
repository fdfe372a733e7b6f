import { useState } from 'react';
import { Button } from 'react-aria-components';
import { useNavigate, useParams } from 'react-router';
import { api, ok } from '../../api/client';
import type { RollbackPreview } from '../../api/models';
import { useProjectActivity, useProjectParts } from '../../api/project-queries';
import { Choice, optionsOf } from '../../components/choice';
import { ErrorNote, Field } from '../../components/form';
import { ProjectNav } from '../../components/project-nav';
import { UnifiedDiff } from '../../components/unified-diff';
import { useAction } from '../../components/use-action';
import { VersionChanges } from '../../components/version-changes';

/** Preview what a rollback restores, confirm it (a release that pins the target), and list and remove pins. */
export function RollbackView() {
  const { slug = '' } = useParams();
  const navigate = useNavigate();
  const parts = useProjectParts(slug);
  const { pins } = useProjectActivity(slug);
  const tenants = parts.tenants.data?.items ?? [];
  const envs = parts.environments.data?.items.map((e) => e.environment) ?? [];
  const [tenantId, setTenantId] = useState('');
  const [env, setEnv] = useState('');
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState<RollbackPreview | null>(null);
  const action = useAction([['project', slug]]);
  const tenant = tenantId || tenants[0]?.id || '';
  const environment = env || envs[envs.length - 1] || '';
  const target = { params: { path: { tenant, env: environment } } };
  async function runPreview() {
    const p = await action.run(() =>
      ok(api.POST('/api/v2/tenants/{tenant}/envs/{env}/rollback/preview', { ...target, body: {} })),
    );
    setPreview(p ?? null);
  }
  async function confirm() {
    const releaseId = preview?.rollbackTo.releaseId;
    const body = { ...(releaseId ? { releaseId } : {}), reason: reason.trim() };
    const release = await action.run(() =>
      ok(api.POST('/api/v2/tenants/{tenant}/envs/{env}/rollback', { ...target, body })),
    );
    if (release) void navigate(`/releases/${release.id}`);
  }
  return (
    <main>
      <h1>Rollback and pins</h1>
      <ProjectNav slug={slug} />
      <section aria-labelledby="rollback" className="stack">
        <h2 id="rollback">Roll back a tenant in an environment</h2>
        <div className="toolbar">
          <Choice
            label="Tenant"
            name="tenant"
            value={tenant}
            onChange={(v) => (setTenantId(v), setPreview(null))}
            options={tenants.map((t) => ({ value: t.id, label: t.name }))}
          />
          <Choice
            label="Environment"
            name="environment"
            value={environment}
            onChange={(v) => (setEnv(v), setPreview(null))}
            options={optionsOf(envs)}
          />
          <Button className="button" onPress={() => void runPreview()} isDisabled={action.pending}>
            Preview rollback
          </Button>
        </div>
        <ErrorNote error={action.error} />
        {preview && (
          <div>
            <p>
              Restores <strong>{preview.rollbackTo.title ?? preview.rollbackTo.kind}</strong> of{' '}
              {new Date(preview.rollbackTo.createdAt ?? preview.rollbackTo.verifiedAt).toLocaleString()}
              {preview.rollbackTo.commitSha && (
                <>
                  {' '}
                  (<code>{preview.rollbackTo.commitSha.slice(0, 12)}</code>)
                </>
              )}
              .
            </p>
            {preview.versions && preview.versions.length > 0 && (
              <VersionChanges versions={preview.versions} label="Versions (now → after the rollback)" />
            )}
            {preview.outcome?.reason && <p role="status">Before it commits: {preview.outcome.reason}.</p>}
            <p>
              The rollback pins {preview.tenant}/{preview.environment}: automatic and bulk image updates skip it until a
              later release or promotion into it (which releases the pin) or an unpin below.
            </p>
            {preview.targets.map((t) =>
              t.files.map((f) => (
                <div key={f.path}>
                  <h3 className="path">
                    {t.service}: {f.path} ({f.status})
                  </h3>
                  <UnifiedDiff text={f.diff} label={f.path} />
                </div>
              )),
            )}
            <Field
              name="reason"
              label="Reason (required: it is recorded in the audit log)"
              value={reason}
              onChange={setReason}
              isRequired
            />
            <Button
              className="button danger"
              onPress={() => void confirm()}
              isDisabled={action.pending || reason.trim() === ''}
            >
              Confirm rollback
            </Button>
          </div>
        )}
      </section>
      <section aria-labelledby="pins">
        <h2 id="pins">Pins</h2>
        {pins.data?.items.length === 0 && <p>No target is pinned.</p>}
        <p className="muted">
          A pin holds back automatic and bulk image updates. A later explicit release or promotion into the target
          releases it; so does Unpin.
        </p>
        <ul className="cards">
          {pins.data?.items.map((p) => (
            <li key={`${p.tenantId}/${p.environment}`} className="card">
              {p.tenant} / {p.environment}: {p.reason} <span className="muted">by {p.pinnedBy}</span>{' '}
              <Button
                className="button"
                onPress={() =>
                  void action.run(() =>
                    ok(
                      api.DELETE('/api/v2/tenants/{tenant}/envs/{env}/pin', {
                        params: { path: { tenant: p.tenantId, env: p.environment } },
                      }),
                    ),
                  )
                }
              >
                Unpin {p.tenant}/{p.environment}
              </Button>
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}
