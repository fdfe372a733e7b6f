import { useQuery } from '@tanstack/react-query';
import type { FormEvent, ReactNode } from 'react';
import { ApiError, api, ok } from '../../api/client';
import { Choice, optionsOf } from '../../components/choice';
import { fieldErrors } from '../../components/field-errors';
import { ErrorNote, Field, Submit, formValues } from '../../components/form';
import { useAction } from '../../components/use-action';

/**
 * One small form that adds or changes something of the project. The server's refusal is shown next to the field it
 * names (`fields` maps the request body's paths to the form's field names), anything else under the form.
 */
export function Editor(props: {
  title: string;
  slug: string;
  fields: Record<string, string>;
  submit: string;
  /** An added object's form empties after success; an edited one keeps what was saved. */
  reset?: boolean;
  children: (errorOf: (field: string) => string | null) => ReactNode;
  send: (v: Record<string, string>) => Promise<unknown>;
}) {
  const action = useAction([['project', props.slug]]);
  const errors = fieldErrors(action.error, props.fields);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    await action.run(
      () => props.send(formValues(form)),
      () => props.reset && form.reset(),
    );
  }
  return (
    // An edit clears the refusal: a field marked invalid would otherwise keep the browser from submitting the form.
    <form
      onSubmit={submit}
      onChange={() => action.error && action.setError(null)}
      className="editor"
      aria-label={props.title}
    >
      <h3>{props.title}</h3>
      {props.children(errors.of)}
      <ErrorNote error={errors.form} />
      <Submit pending={action.pending}>{props.submit}</Submit>
    </form>
  );
}

/** The Kubernetes versions the validation engine knows, newest first. */
export function KubernetesVersion(props: { value?: string; error?: string | null }) {
  const versions = useQuery({
    queryKey: ['k8s-versions'],
    queryFn: () => ok<{ versions: string[] }>(api.GET('/api/v2/k8s/versions')),
  });
  // Newest first: the first option is what a reset form falls back to.
  const list = [...(versions.data?.versions ?? [])].reverse();
  return (
    <>
      <Choice
        label="Kubernetes version"
        name="kubernetesVersion"
        required
        options={optionsOf(list)}
        defaultValue={props.value}
      />
      <ErrorNote error={props.error} />
    </>
  );
}

/** The workload body of the image fields (and the port, when given). */
export function workloadBody({ name = '', repository = '', tag = '', port = '' }: Record<string, string>) {
  return {
    name,
    image: { repository, tag },
    ...(port ? { ports: [{ name: 'http', containerPort: Number(port) }] } : {}),
  };
}

export const WORKLOAD_FIELDS = { name: 'name', 'image.repository': 'repository', 'image.tag': 'tag', ports: 'port' };

/** Adds environments, tenants and workloads to the project. */
export function ProjectEditors({ slug }: { slug: string }) {
  const path = { params: { path: { slug } } };
  return (
    <section aria-labelledby="add-to-project" className="editors">
      <h2 id="add-to-project">Add to the project</h2>
      <Editor
        title="Add an environment"
        slug={slug}
        submit="Add"
        reset
        fields={{ environment: 'environment', kubernetesVersion: 'kubernetesVersion' }}
        send={async ({ environment = '', kubernetesVersion = '' }) => {
          // The organization's catalogue names environments; a project adds one it has (a 409 means it exists).
          const made = await api.POST('/api/v2/org/environments', { body: { slug: environment } });
          if (!made.response.ok && made.response.status !== 409)
            throw new ApiError(made.response.status, made.error?.error ?? 'environment refused');
          return ok(
            api.POST('/api/v2/projects/{slug}/environments', { ...path, body: { environment, kubernetesVersion } }),
          );
        }}
      >
        {(errorOf) => (
          <>
            <Field
              name="environment"
              label="Environment"
              isRequired
              placeholder="prod"
              error={errorOf('environment')}
            />
            <KubernetesVersion error={errorOf('kubernetesVersion')} />
          </>
        )}
      </Editor>
      <Editor
        title="Add a tenant"
        slug={slug}
        submit="Add"
        reset
        fields={{ slug: 'tenant', name: 'name' }}
        send={({ tenant = '', name = '' }) =>
          ok(api.POST('/api/v2/projects/{slug}/tenants', { ...path, body: { slug: tenant, name: name || tenant } }))
        }
      >
        {(errorOf) => (
          <>
            <Field name="tenant" label="Tenant slug" isRequired placeholder="acme" error={errorOf('tenant')} />
            <Field name="name" label="Tenant name" placeholder="Acme" error={errorOf('name')} />
          </>
        )}
      </Editor>
      <Editor
        title="Add a workload"
        slug={slug}
        submit="Add"
        reset
        fields={WORKLOAD_FIELDS}
        send={(v) => ok(api.POST('/api/v2/projects/{slug}/workloads', { ...path, body: workloadBody(v) }))}
      >
        {(errorOf) => (
          <>
            <Field name="name" label="Workload name" isRequired placeholder="web" error={errorOf('name')} />
            <Field
              name="repository"
              label="Image repository"
              isRequired
              placeholder="registry.example.com/shop/web"
              error={errorOf('repository')}
            />
            <Field name="tag" label="Image tag" isRequired placeholder="1.0.0" error={errorOf('tag')} />
            <Field name="port" label="Container port" inputMode="numeric" placeholder="8080" error={errorOf('port')} />
          </>
        )}
      </Editor>
    </section>
  );
}
