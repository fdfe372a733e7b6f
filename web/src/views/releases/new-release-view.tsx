import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ApiError, api, messageOf, ok } from '../../api/client';
import type { ValidationResult, Workload } from '../../api/models';
import type { RequestSchema } from '../../api/request-schemas';
import { useProjectParts } from '../../api/project-queries';
import { Choice, optionsOf } from '../../components/choice';
import { ErrorNote, Field, Submit, formValues } from '../../components/form';
import { ProjectNav } from '../../components/project-nav';
import { useAction } from '../../components/use-action';
import { ReleasePreviewPanel } from './release-preview';
import { ValidationResults } from './validation-results';

/** The create body the form's fields make. */
function bodyOf(form: HTMLFormElement, workloads: Workload[]) {
  const v = formValues(form);
  const changes: NonNullable<RequestSchema<'release-create'>['changes']> = workloads
    .map((w) => ({ workload: w.name, tag: v[`tag:${w.name}`]?.trim() ?? '' }))
    .filter((c) => c.tag !== '');
  return {
    environment: v.environment ?? '',
    tenantId: v.tenantId ?? '',
    title: v.title ?? '',
    ...(changes.length > 0 ? { changes } : {}),
  };
}

/** The server's preview of the body, asked again a moment after the fields stop changing. */
function usePreview(slug: string, body: ReturnType<typeof bodyOf> | null) {
  const [settled, setSettled] = useState(body);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(body), 400);
    return () => clearTimeout(timer);
  }, [body]);
  return useQuery({
    queryKey: ['project', slug, 'release-preview', settled],
    enabled: settled !== null && settled.environment !== '' && settled.tenantId !== '',
    placeholderData: keepPreviousData,
    retry: false,
    // The title does not change the outcome; the route's schema only asks for one.
    queryFn: () =>
      ok(
        api.POST('/api/v2/projects/{slug}/releases/preview', {
          params: { path: { slug } },
          body: { ...settled!, title: settled!.title || 'preview' },
        }),
      ),
  });
}

/** Environment, tenant, title and per-workload changes; the server validates and answers with the release. */
export function NewReleaseView() {
  const { slug = '' } = useParams();
  const navigate = useNavigate();
  const parts = useProjectParts(slug);
  const create = useAction([['project', slug]]);
  const workloads = parts.workloads.data?.items ?? [];
  const [draft, setDraft] = useState<ReturnType<typeof bodyOf> | null>(null);
  const preview = usePreview(slug, draft);
  const form = useRef<HTMLFormElement>(null);
  // A creation refused by validation (422) answers the validation result: shown under the refusal.
  const [refused, setRefused] = useState<ValidationResult | null>(null);
  const loaded = Boolean(parts.environments.data && parts.tenants.data && parts.workloads.data);
  // Once the choices are there, the first environment and tenant are chosen: check them at once.
  useEffect(() => {
    if (loaded && form.current) setDraft(bodyOf(form.current, parts.workloads.data?.items ?? []));
  }, [loaded, parts.workloads.data]);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = bodyOf(event.currentTarget, workloads);
    setRefused(null);
    const release = await create.run(async () => {
      try {
        return await ok(api.POST('/api/v2/projects/{slug}/releases', { params: { path: { slug } }, body }));
      } catch (err) {
        if (err instanceof ApiError && err.status === 422 && err.body.validation) {
          setRefused(err.body.validation as ValidationResult);
        }
        throw err;
      }
    });
    if (release) void navigate(`/releases/${release.id}`);
  }
  return (
    <main>
      <h1>New release</h1>
      <ProjectNav slug={slug} />
      <form
        ref={form}
        onSubmit={submit}
        onChange={(e) => setDraft(bodyOf(e.currentTarget, workloads))}
        className="stack"
        aria-label="New release"
      >
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
          the check below shows what it would meet before you create it.
        </p>
        <ErrorNote error={preview.error ? messageOf(preview.error) : null} />
        {preview.data && <ReleasePreviewPanel preview={preview.data} />}
        <ErrorNote error={create.error} />
        {refused && (
          <section aria-labelledby="release-refused" className="card">
            <h2 id="release-refused">Not created: validation blocks it</h2>
            <ValidationResults validation={refused} label="Validation results that blocked the release" />
          </section>
        )}
        <Submit pending={create.pending}>Create release</Submit>
      </form>
    </main>
  );
}
