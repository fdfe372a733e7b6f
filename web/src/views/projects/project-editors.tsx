import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { api, ok } from '../../api/client';
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
    queryFn: () => ok(api.GET('/api/v2/k8s/versions')),
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

/** The choice that creates a catalogue entry instead of picking one. */
const NEW_ENVIRONMENT = '+new';

/**
 * Adds one of the organization's catalogue environments to the project. Creating a catalogue entry is a separate,
 * explicit choice ("New organization environment…" with its own slug, name and production flag): a typo in a picked
 * name can no longer create an organization-wide environment, and a slug that exists is refused, not reused.
 */
function AddEnvironment({ slug }: { slug: string }) {
  const catalogue = useQuery({
    queryKey: ['org-environments'],
    queryFn: () => ok(api.GET('/api/v2/org/environments')),
  });
  const client = useQueryClient();
  const [choice, setChoice] = useState('');
  const options = (catalogue.data?.items ?? []).map((e) => ({
    value: e.slug,
    label: `${e.name} (${e.slug}${e.production ? ', production' : ''})`,
  }));
  return (
    <Editor
      title="Add an environment"
      slug={slug}
      submit="Add"
      reset
      fields={{ environment: 'environment', kubernetesVersion: 'kubernetesVersion', slug: 'newSlug', name: 'newName' }}
      send={async ({ environment = '', kubernetesVersion = '', newSlug = '', newName = '', newProduction }) => {
        let picked = environment;
        if (environment === NEW_ENVIRONMENT) {
          const body = { slug: newSlug, name: newName || newSlug, production: newProduction === 'on' };
          await ok(api.POST('/api/v2/org/environments', { body }));
          await client.invalidateQueries({ queryKey: ['org-environments'] });
          picked = newSlug;
        }
        await ok(
          api.POST('/api/v2/projects/{slug}/environments', {
            ...pathOf(slug),
            body: { environment: picked, kubernetesVersion },
          }),
        );
        setChoice('');
      }}
    >
      {(errorOf) => (
        <>
          <Choice
            label="Environment"
            name="environment"
            required
            any="Choose an environment"
            options={[...options, { value: NEW_ENVIRONMENT, label: 'New organization environment…' }]}
            value={choice}
            onChange={setChoice}
          />
          {choice === NEW_ENVIRONMENT && (
            <fieldset className="new-environment">
              <legend>New environment in the organization's catalogue (every project can use it)</legend>
              <Field
                name="newSlug"
                label="Environment slug"
                isRequired
                placeholder="staging"
                error={errorOf('newSlug')}
              />
              <Field name="newName" label="Environment name" placeholder="Staging" error={errorOf('newName')} />
              <label>
                <input type="checkbox" name="newProduction" /> Production
              </label>
            </fieldset>
          )}
          <KubernetesVersion error={errorOf('kubernetesVersion')} />
        </>
      )}
    </Editor>
  );
}

const pathOf = (slug: string) => ({ params: { path: { slug } } });

/** Adds environments, tenants and workloads to the project. */
export function ProjectEditors({ slug }: { slug: string }) {
  const path = pathOf(slug);
  return (
    <section aria-labelledby="add-to-project" className="editors">
      <h2 id="add-to-project">Add to the project</h2>
      <AddEnvironment slug={slug} />
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
