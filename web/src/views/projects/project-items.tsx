import { api, ok } from '../../api/client';
import type { ProjectEnvironment, Tenant, Workload } from '../../api/models';
import { Field } from '../../components/form';
import { ConfirmRemoval } from './confirm-removal';
import { Editor, KubernetesVersion, WORKLOAD_FIELDS, workloadBody } from './project-editors';

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
  const project = { slug };
  return (
    <section aria-labelledby="edit-project" className="editors">
      <h2 id="edit-project">Edit the project</h2>
      {props.environments.map((e) => {
        const path = { params: { path: { ...project, environment: e.environment } } };
        return (
          <div key={e.environment} className="item">
            <Editor
              title={`Environment ${e.environment}`}
              slug={slug}
              submit="Save"
              fields={{ kubernetesVersion: 'kubernetesVersion' }}
              send={({ kubernetesVersion = '' }) =>
                ok(
                  api.PATCH('/api/v2/projects/{slug}/environments/{environment}', {
                    ...path,
                    body: { kubernetesVersion },
                  }),
                )
              }
            >
              {(errorOf) => <KubernetesVersion value={e.kubernetesVersion} error={errorOf('kubernetesVersion')} />}
            </Editor>
            <ConfirmRemoval
              kind="environment"
              name={e.environment}
              slug={slug}
              remove={() => ok(api.DELETE('/api/v2/projects/{slug}/environments/{environment}', path))}
            />
          </div>
        );
      })}
      {props.tenants.map((t) => {
        const path = { params: { path: { tenant: t.id } } };
        return (
          <div key={t.id} className="item">
            <Editor
              title={`Tenant ${t.slug}`}
              slug={slug}
              submit="Save"
              fields={{ name: 'name' }}
              send={({ name = '' }) => ok(api.PATCH('/api/v2/tenants/{tenant}', { ...path, body: { name } }))}
            >
              {(errorOf) => (
                <Field name="name" label="Tenant name" isRequired defaultValue={t.name} error={errorOf('name')} />
              )}
            </Editor>
            <ConfirmRemoval
              kind="tenant"
              name={t.slug}
              slug={slug}
              remove={() => ok(api.DELETE('/api/v2/tenants/{tenant}', path))}
            />
          </div>
        );
      })}
      {props.workloads.map((w) => {
        const path = { params: { path: { ...project, name: w.name } } };
        return (
          <div key={w.name} className="item">
            <Editor
              title={`Workload ${w.name}`}
              slug={slug}
              submit="Save"
              fields={WORKLOAD_FIELDS}
              send={(v) => {
                const { image } = workloadBody(v);
                return ok(api.PATCH('/api/v2/projects/{slug}/workloads/{name}', { ...path, body: { image } }));
              }}
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
            </Editor>
            <ConfirmRemoval
              kind="workload"
              name={w.name}
              slug={slug}
              remove={() => ok(api.DELETE('/api/v2/projects/{slug}/workloads/{name}', path))}
            />
          </div>
        );
      })}
    </section>
  );
}
