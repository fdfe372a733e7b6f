import type { ReactNode } from 'react';
import { api, ok } from '../../api/client';
import type { ProjectEnvironment, Tenant, Workload } from '../../api/models';
import { Field } from '../../components/form';
import { ConfirmRemoval } from './confirm-removal';
import { Editor, KubernetesVersion, WORKLOAD_FIELDS, workloadBody } from './project-editors';

/** One object of the project: its edit form ("Environment dev") and its removal, confirmed by name. */
function Item(props: {
  kind: 'environment' | 'tenant' | 'workload';
  name: string;
  slug: string;
  fields: Record<string, string>;
  send: (v: Record<string, string>) => Promise<unknown>;
  remove: () => Promise<unknown>;
  children: (errorOf: (field: string) => string | null) => ReactNode;
}) {
  const title = `${props.kind[0]!.toUpperCase()}${props.kind.slice(1)} ${props.name}`;
  return (
    <div className="item">
      <Editor title={title} slug={props.slug} submit="Save" fields={props.fields} send={props.send}>
        {props.children}
      </Editor>
      <ConfirmRemoval kind={props.kind} name={props.name} slug={props.slug} remove={props.remove} />
    </div>
  );
}

/**
 * The project's environments, tenants and workloads, each editable in place and removable after its name is typed
 * back (an environment still in use is refused with what uses it).
 */
export function ProjectItems(props: {
  slug: string;
  environments: ProjectEnvironment[];
  tenants: Tenant[];
  workloads: Workload[];
}) {
  const { slug } = props;
  return (
    <section aria-labelledby="edit-project" className="editors">
      <h2 id="edit-project">Edit the project</h2>
      {props.environments.map((e) => {
        const path = { params: { path: { slug, environment: e.environment } } };
        const one = '/api/v2/projects/{slug}/environments/{environment}';
        return (
          <Item
            key={e.environment}
            kind="environment"
            name={e.environment}
            slug={slug}
            fields={{ kubernetesVersion: 'kubernetesVersion' }}
            send={({ kubernetesVersion = '' }) => ok(api.PATCH(one, { ...path, body: { kubernetesVersion } }))}
            remove={() => ok(api.DELETE(one, path))}
          >
            {(errorOf) => <KubernetesVersion value={e.kubernetesVersion} error={errorOf('kubernetesVersion')} />}
          </Item>
        );
      })}
      {props.tenants.map((t) => {
        const path = { params: { path: { tenant: t.id } } };
        return (
          <Item
            key={t.id}
            kind="tenant"
            name={t.slug}
            slug={slug}
            fields={{ name: 'name' }}
            send={({ name = '' }) => ok(api.PATCH('/api/v2/tenants/{tenant}', { ...path, body: { name } }))}
            remove={() => ok(api.DELETE('/api/v2/tenants/{tenant}', path))}
          >
            {(errorOf) => (
              <Field name="name" label="Tenant name" isRequired defaultValue={t.name} error={errorOf('name')} />
            )}
          </Item>
        );
      })}
      {props.workloads.map((w) => {
        const path = { params: { path: { slug, name: w.name } } };
        const one = '/api/v2/projects/{slug}/workloads/{name}';
        return (
          <Item
            key={w.name}
            kind="workload"
            name={w.name}
            slug={slug}
            fields={WORKLOAD_FIELDS}
            send={(v) => ok(api.PATCH(one, { ...path, body: { image: workloadBody(v).image } }))}
            remove={() => ok(api.DELETE(one, path))}
          >
            {(errorOf) => (
              <>
                <Field
                  name="repository"
                  label="Image repository"
                  isRequired
                  defaultValue={w.image.repository}
                  error={errorOf('repository')}
                />
                <Field name="tag" label="Image tag" isRequired defaultValue={w.image.tag} error={errorOf('tag')} />
              </>
            )}
          </Item>
        );
      })}
    </section>
  );
}
