import type { ReactNode } from 'react';
import { api, ok } from '../../api/client';
import type { ProjectEnvironment, Tenant, Workload } from '../../api/models';
import { Field } from '../../components/form';
import { ConfirmRemoval } from './confirm-removal';
import { Editor, KubernetesVersion, WORKLOAD_FIELDS, workloadBody } from './project-editors';

/** What one object of the project needs: its kind and name, its form's fields, how to save and remove it. */
interface ItemSpec {
  kind: 'environment' | 'tenant' | 'workload';
  name: string;
  fields: Record<string, string>;
  send: (v: Record<string, string>) => Promise<unknown>;
  remove: () => Promise<unknown>;
  children: (errorOf: (field: string) => string | null) => ReactNode;
}

/** One object of the project: its edit form ("Environment dev") and its removal, confirmed by name. */
function Item({ slug, spec }: { slug: string; spec: ItemSpec }) {
  const title = `${spec.kind[0]!.toUpperCase()}${spec.kind.slice(1)} ${spec.name}`;
  return (
    <div className="item">
      <Editor title={title} slug={slug} submit="Save" fields={spec.fields} send={spec.send}>
        {spec.children}
      </Editor>
      <ConfirmRemoval kind={spec.kind} name={spec.name} slug={slug} remove={spec.remove} />
    </div>
  );
}

function environmentItem(slug: string, e: ProjectEnvironment): ItemSpec {
  const at = { params: { path: { slug, environment: e.environment } } };
  const url = '/api/v2/projects/{slug}/environments/{environment}';
  return {
    kind: 'environment',
    name: e.environment,
    fields: { kubernetesVersion: 'kubernetesVersion' },
    send: ({ kubernetesVersion = '' }) => ok(api.PATCH(url, { ...at, body: { kubernetesVersion } })),
    remove: () => ok(api.DELETE(url, at)),
    children: (errorOf) => <KubernetesVersion value={e.kubernetesVersion} error={errorOf('kubernetesVersion')} />,
  };
}

function tenantItem(t: Tenant): ItemSpec {
  const at = { params: { path: { tenant: t.id } } };
  return {
    kind: 'tenant',
    name: t.slug,
    fields: { name: 'name' },
    send: ({ name = '' }) => ok(api.PATCH('/api/v2/tenants/{tenant}', { ...at, body: { name } })),
    remove: () => ok(api.DELETE('/api/v2/tenants/{tenant}', at)),
    children: (errorOf) => (
      <Field name="name" label="Tenant name" isRequired defaultValue={t.name} error={errorOf('name')} />
    ),
  };
}

function workloadItem(slug: string, w: Workload): ItemSpec {
  const at = { params: { path: { slug, name: w.name } } };
  const url = '/api/v2/projects/{slug}/workloads/{name}';
  return {
    kind: 'workload',
    name: w.name,
    fields: WORKLOAD_FIELDS,
    send: (v) => ok(api.PATCH(url, { ...at, body: { image: workloadBody(v).image } })),
    remove: () => ok(api.DELETE(url, at)),
    children: (errorOf) => (
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
    ),
  };
}

/**
 * The project's environments, tenants and workloads, each editable in place and removable after its name is typed
 * back (an environment still in use is refused with what uses it). One Item renders every kind.
 */
export function ProjectItems(props: {
  slug: string;
  environments: ProjectEnvironment[];
  tenants: Tenant[];
  workloads: Workload[];
}) {
  const { slug } = props;
  const specs = [
    ...props.environments.map((e) => environmentItem(slug, e)),
    ...props.tenants.map(tenantItem),
    ...props.workloads.map((w) => workloadItem(slug, w)),
  ];
  return (
    <section aria-labelledby="edit-project" className="editors">
      <h2 id="edit-project">Edit the project</h2>
      {specs.map((spec) => (
        <Item key={`${spec.kind}:${spec.name}`} slug={slug} spec={spec} />
      ))}
    </section>
  );
}
