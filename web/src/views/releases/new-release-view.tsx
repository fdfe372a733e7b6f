import type { FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, ok } from '../../api/client';
import type { Release, WorkloadChange } from '../../api/models';
import { useProjectParts } from '../../api/project-queries';
import { Choice, optionsOf } from '../../components/choice';
import { ErrorNote, Field, Submit, formValues } from '../../components/form';
import { ProjectNav } from '../../components/project-nav';
import { useAction } from '../../components/use-action';

/** Environment, tenant, title and per-workload changes; the server validates and answers with the release. */
export function NewReleaseView() {
  const { slug = '' } = useParams();
  const navigate = useNavigate();
  const parts = useProjectParts(slug);
  const create = useAction([['project', slug]]);
  const workloads = parts.workloads.data?.items ?? [];
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    const changes: WorkloadChange[] = workloads
      .map((w) => ({ workload: w.name, tag: v[`tag:${w.name}`]?.trim() ?? '' }))
      .filter((c) => c.tag !== '');
    const body = {
      environment: v.environment ?? '',
      tenantId: v.tenantId ?? '',
      title: v.title ?? '',
      ...(changes.length > 0 ? { changes } : {}),
    };
    const release = await create.run(() =>
      ok<Release>(api.POST('/api/v2/projects/{slug}/releases', { params: { path: { slug } }, body })),
    );
    if (release) void navigate(`/releases/${release.id}`);
  }
  return (
    <main>
      <h1>New release</h1>
      <ProjectNav slug={slug} />
      <form onSubmit={submit} className="stack" aria-label="New release">
        <Choice
          label="Environment"
          name="environment"
          required
          options={optionsOf(parts.environments.data?.items.map((e) => e.environment) ?? [])}
        />
        <Choice
          label="Tenant"
          name="tenantId"
          required
          options={parts.tenants.data?.items.map((t) => ({ value: t.id, label: t.name })) ?? []}
        />
        <Field name="title" label="Title" isRequired placeholder="web 1.4.2" />
        <fieldset>
          <legend>Changes (leave empty to deploy the current configuration)</legend>
          {workloads.map((w) => (
            <Field key={w.name} name={`tag:${w.name}`} label={`New image tag of ${w.name}`} placeholder={w.image.tag} />
          ))}
        </fieldset>
        <p className="muted">
          The release is validated against the environment&apos;s Kubernetes version and the project&apos;s policies;
          the results are shown on its page.
        </p>
        <ErrorNote error={create.error} />
        <Submit pending={create.pending}>Create release</Submit>
      </form>
    </main>
  );
}
