import { useQuery } from '@tanstack/react-query';
import type { FormEvent, ReactNode } from 'react';
import { ApiError, api, ok } from '../../api/client';
import { Choice, optionsOf } from '../../components/choice';
import { ErrorNote, Field, Submit, formValues } from '../../components/form';
import { useAction } from '../../components/use-action';

/** One small form that adds something to the project; the server's validation error is shown under it. */
function Editor(props: {
  title: string;
  slug: string;
  children: ReactNode;
  send: (v: Record<string, string>) => Promise<unknown>;
}) {
  const action = useAction([['project', props.slug]]);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const done = await action.run(() => props.send(formValues(form)));
    if (done !== undefined) form.reset();
  }
  return (
    <form onSubmit={submit} className="editor" aria-label={props.title}>
      <h3>{props.title}</h3>
      {props.children}
      <ErrorNote error={action.error} />
      <Submit pending={action.pending}>Add</Submit>
    </form>
  );
}

function KubernetesVersion() {
  const versions = useQuery({
    queryKey: ['k8s-versions'],
    queryFn: () => ok<{ versions: string[] }>(api.GET('/api/v2/k8s/versions')),
  });
  // Newest first: the first option is what a reset form falls back to.
  const list = [...(versions.data?.versions ?? [])].reverse();
  return <Choice label="Kubernetes version" name="kubernetesVersion" required options={optionsOf(list)} />;
}

/** Adds environments, tenants and workloads to the project. */
export function ProjectEditors({ slug }: { slug: string }) {
  const path = { params: { path: { slug } } };
  return (
    <section aria-labelledby="edit-project" className="editors">
      <h2 id="edit-project">Edit the project</h2>
      <Editor
        title="Add an environment"
        slug={slug}
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
        <Field name="environment" label="Environment" isRequired placeholder="prod" />
        <KubernetesVersion />
      </Editor>
      <Editor
        title="Add a tenant"
        slug={slug}
        send={({ tenant = '', name = '' }) =>
          ok(api.POST('/api/v2/projects/{slug}/tenants', { ...path, body: { slug: tenant, name: name || tenant } }))
        }
      >
        <Field name="tenant" label="Tenant slug" isRequired placeholder="acme" />
        <Field name="name" label="Tenant name" placeholder="Acme" />
      </Editor>
      <Editor
        title="Add a workload"
        slug={slug}
        send={({ name = '', repository = '', tag = '', port = '' }) =>
          ok(
            api.POST('/api/v2/projects/{slug}/workloads', {
              ...path,
              body: {
                name,
                image: { repository, tag },
                ...(port ? { ports: [{ name: 'http', containerPort: Number(port) }] } : {}),
              },
            }),
          )
        }
      >
        <Field name="name" label="Workload name" isRequired placeholder="web" />
        <Field name="repository" label="Image repository" isRequired placeholder="registry.example.com/shop/web" />
        <Field name="tag" label="Image tag" isRequired placeholder="1.0.0" />
        <Field name="port" label="Container port" inputMode="numeric" placeholder="8080" />
      </Editor>
    </section>
  );
}
