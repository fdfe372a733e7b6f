/**
 * The generator's Argo CD objects (issue 26): destinations per environment and bound cluster, one AppProject that
 * allows exactly those, the sync policy of each environment, an app-of-apps root per destination cluster; every object
 * validates against Argo CD's own CRD schemas.
 */
import { load } from 'js-yaml';
import { resolveDestinations } from '../../../src/gitops/destinations';
import { renderAll, type DeliveryModel } from '../../../src/gitops/manifests';
import { defaultSyncPolicy } from '../../../src/projects/argocd-settings';
import { engine } from '../validation/corpus';
import { argoProblems, isArgoFile } from '../../helpers/argocd-validation';
import { SPEC } from './delivery-models';

type Obj = { kind: string; metadata: { name: string }; spec: Record<string, unknown> };

const tenant = (slug: string, namespaceTemplate: string | null = null) => ({ slug, namespaceTemplate });

function model(bindings: { cluster: string; tenants: string[]; environments: string[] }[], extra = {}): DeliveryModel {
  const environments = [
    { slug: 'staging', destination: { namespaceTemplate: null, server: null, allowSharedNamespace: false } },
    { slug: 'production', destination: { namespaceTemplate: null, server: null, allowSharedNamespace: false } },
  ];
  const { destinations } = resolveDestinations({
    project: 'shop',
    tenants: [tenant('acme'), tenant('globex')],
    environments,
    bindings,
    ...extra,
  });
  return {
    project: 'shop',
    repoUrl: 'http://127.0.0.1:8080/git/r/acme/shop.git',
    tenants: ['acme', 'globex'],
    environments: [
      { slug: 'staging', kubernetesVersion: '1.31', production: false, syncPolicy: defaultSyncPolicy(false) },
      { slug: 'production', kubernetesVersion: '1.30', production: true, syncPolicy: defaultSyncPolicy(true) },
    ],
    destinations,
    argocd: { appProjectPerTenant: false, clusterResources: false },
    workloads: [{ name: 'api', spec: SPEC, overrides: {} }],
  };
}

const TWO_CLUSTERS = [
  { cluster: 'eu-staging', tenants: [], environments: ['staging'] },
  { cluster: 'eu-prod', tenants: [], environments: ['production'] },
];

describe('generated Argo CD objects', () => {
  const files = renderAll(model(TWO_CLUSTERS));
  const obj = (path: string) => load(files.get(path) ?? '') as Obj;

  it('gives each environment its own cluster and namespace, and the production defaults never prune', () => {
    const staging = obj('applications/acme/staging/api.yaml').spec;
    const production = obj('applications/acme/production/api.yaml').spec;
    expect(staging.destination).toEqual({ name: 'eu-staging', namespace: 'acme-staging' });
    expect(production.destination).toEqual({ name: 'eu-prod', namespace: 'acme-production' });
    expect(staging.project).toBe('shop');
    expect(staging.syncPolicy).toEqual({
      automated: { prune: true, selfHeal: true },
      syncOptions: ['CreateNamespace=true'],
    });
    expect(production.syncPolicy).toEqual({
      automated: { prune: false, selfHeal: false },
      syncOptions: ['CreateNamespace=true'],
    });
  });

  it('writes one AppProject allowing exactly the bound clusters and namespaces, and only those Namespaces', () => {
    const project = obj('appprojects/shop.yaml');
    expect(project.spec.sourceRepos).toEqual(['http://127.0.0.1:8080/git/r/acme/shop.git']);
    expect(project.spec.destinations).toEqual([
      { name: 'eu-prod', namespace: 'acme-production' },
      { name: 'eu-prod', namespace: 'globex-production' },
      { name: 'eu-staging', namespace: 'acme-staging' },
      { name: 'eu-staging', namespace: 'globex-staging' },
    ]);
    // CreateNamespace=true: Argo CD checks the Namespace it creates against this list (issue 44).
    expect(project.spec.clusterResourceWhitelist).toEqual([
      { group: '', kind: 'Namespace', name: 'acme-production' },
      { group: '', kind: 'Namespace', name: 'acme-staging' },
      { group: '', kind: 'Namespace', name: 'globex-production' },
      { group: '', kind: 'Namespace', name: 'globex-staging' },
    ]);
  });

  it('writes a root per destination cluster, and the self-managed roots of both topologies', () => {
    expect([...files.keys()].filter((p) => p.startsWith('bootstrap/')).sort()).toEqual([
      'bootstrap/appproject.yaml',
      'bootstrap/clusters/eu-prod.yaml',
      'bootstrap/clusters/eu-staging.yaml',
      'bootstrap/hub.yaml',
      'bootstrap/per-cluster/eu-prod.yaml',
      'bootstrap/per-cluster/eu-staging.yaml',
    ]);
    const include = (p: string) => (obj(p).spec.source as { directory: { include: string } }).directory.include;
    expect(obj('bootstrap/clusters/eu-prod.yaml').metadata.name).toBe('shop-apps-eu-prod');
    expect(include('bootstrap/clusters/eu-prod.yaml')).toBe(
      '{applications/acme/production/*.yaml,applications/globex/production/*.yaml}',
    );
    expect(include('bootstrap/per-cluster/eu-prod.yaml')).toBe(
      '{bootstrap/per-cluster/eu-prod.yaml,bootstrap/appproject.yaml,bootstrap/clusters/eu-prod.yaml,appprojects/shop.yaml}',
    );
    expect(include('bootstrap/hub.yaml')).toBe(
      '{bootstrap/hub.yaml,bootstrap/appproject.yaml,bootstrap/clusters/*.yaml,appprojects/*.yaml}',
    );
  });

  it('reports two environments rendering to one cluster and namespace unless both allow it', () => {
    const shared = {
      project: 'shop',
      tenants: [tenant('acme')],
      namespaceTemplate: '{tenant}',
      bindings: [],
    };
    const env = (slug: string, allow: boolean) => ({
      slug,
      destination: { namespaceTemplate: null, server: null, allowSharedNamespace: allow },
    });
    const refused = resolveDestinations({ ...shared, environments: [env('staging', false), env('production', true)] });
    expect(refused.conflicts).toEqual([
      'acme/staging, acme/production render to the same cluster and namespace in-cluster/acme ' +
        '(set destination.allowSharedNamespace on their environments to allow it)',
    ]);
    const allowed = resolveDestinations({ ...shared, environments: [env('staging', true), env('production', true)] });
    expect(allowed.conflicts).toEqual([]);
  });

  it("takes a tenant's namespace template before the environment's and the project's", () => {
    const environments = [
      {
        slug: 'staging',
        destination: { namespaceTemplate: '{tenant}-stg', server: null, allowSharedNamespace: false },
      },
      { slug: 'production', destination: { namespaceTemplate: null, server: null, allowSharedNamespace: false } },
    ];
    const { destinations, conflicts } = resolveDestinations({
      project: 'shop',
      tenants: [tenant('acme', 'acme-{environment}-{project}'), tenant('globex')],
      environments,
      namespaceTemplate: '{project}-{tenant}-{environment}',
      bindings: [],
    });
    expect(conflicts).toEqual([]);
    const namespaces = Object.fromEntries([...destinations].map(([pair, d]) => [pair, d.argo.namespace]));
    expect(namespaces).toEqual({
      'acme/staging': 'acme-staging-shop',
      'acme/production': 'acme-production-shop',
      'globex/staging': 'globex-stg',
      'globex/production': 'shop-globex-production',
    });
  });

  it('validates every Application, AppProject and root against the Argo CD schemas', async () => {
    const e = await engine();
    const argo = [...files].filter(([path]) => isArgoFile(path));
    expect(argo.length).toBe(4 + 1 + 6);
    expect(argoProblems(e, argo)).toEqual([]);
  });

  it('finds a field Argo CD does not know (the check can fail)', async () => {
    const e = await engine();
    const bad = files.get('applications/acme/staging/api.yaml')?.replace('syncPolicy:', 'syncPolicyy:') ?? '';
    expect(argoProblems(e, [['applications/acme/staging/api.yaml', bad]]).join('\n')).toMatch(/syncPolicyy/);
  });
});
