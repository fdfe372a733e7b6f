/**
 * Issue 44: the generated repository as a real Argo CD runs it (src/argocd-semantics). Starting only from what
 * the bootstrap route returns, for one Argo CD per cluster and for a hub, after each of a sequence of changes: every
 * first sync permitted (the auto-created Namespace included), one owner per object, the expected Applications and
 * nothing stale. Each Application's folder is built with the real kustomize.
 */
import path from 'node:path';
import { bootstrapDocuments } from '../../../src/gitops/bootstrap';
import { kubeScopeOf } from '../../../src/validation/kube-scopes';
import { renderAll } from '../../../src/gitops/manifests';
import { destinationOf } from '../../../src/gitops/argocd-objects';
import { isApplication, type KubeObject, type RepositoryTree } from '../../../src/argocd-semantics/argo-objects';
import type { KustomizeRenderer } from '../../../src/argocd-semantics/application-manifests';
import { documentsOf } from '../../../src/argocd-semantics/argo-objects';
import {
  checkRepository,
  instanceFindings,
  instanceOfBootstrap,
  simulate,
  type ArgoInstance,
} from '../../../src/argocd-semantics/semantics-check';
import { createKubeTools } from '../../../src/tools/kube-tools';
import { kustomizeBuild } from '../../../src/tools/kustomize-build';
import { createRenderers } from '../../../src/tools/renderers';
import { loadRendererSettings } from '../../../src/config/renderers';
import { repoRoot } from '../../../src/paths';
import { defaultSyncPolicy } from '../../../src/projects/argocd-settings';
import { ACCEPTANCE, deliveryModel, type ModelShape } from './delivery-models';

/** The real kustomize over each folder, once per distinct content (the steps share most folders). */
async function realKustomize(trees: RepositoryTree[]): Promise<KustomizeRenderer> {
  const renderers = createRenderers(
    createKubeTools({ toolsDir: path.join(repoRoot(), '.tools') }),
    loadRendererSettings({}),
  );
  const built = new Map<string, KubeObject[]>();
  const folderFiles = (tree: RepositoryTree, dir: string) =>
    Object.fromEntries([...tree].filter(([f]) => path.dirname(f) === dir).map(([f, t]) => [path.basename(f), t]));
  for (const tree of trees)
    for (const file of tree.keys())
      if (file.endsWith('/kustomization.yaml')) {
        const files = folderFiles(tree, path.dirname(file));
        const key = JSON.stringify(files);
        if (!built.has(key)) built.set(key, documentsOf(await kustomizeBuild(renderers, 'test', files)));
      }
  return (dir, tree) => built.get(JSON.stringify(folderFiles(tree, dir))) ?? [];
}

const STEPS: [string, ModelShape][] = [];
{
  let shape: ModelShape = ACCEPTANCE;
  const step = (name: string, change: (s: ModelShape) => ModelShape) => {
    shape = change(shape);
    STEPS.push([name, shape]);
  };
  step('create', (s) => s);
  step('add tenant', (s) => ({ ...s, tenants: [...s.tenants, 'initech'] }));
  step('add cluster binding', (s) => ({
    ...s,
    bindings: [...s.bindings, { cluster: 'eu-dev', tenants: [], environments: ['dev'] }],
  }));
  step('tenant-only binding', (s) => ({
    ...s,
    bindings: [{ cluster: 'us-prod', tenants: ['globex'], environments: ['production'] }, ...s.bindings],
  }));
  step('remove environment', (s) => ({ ...s, environments: s.environments.filter((e) => e !== 'staging') }));
  step('remove tenant', (s) => ({ ...s, tenants: s.tenants.filter((t) => t !== 'initech') }));
  step('remove binding', (s) => ({ ...s, bindings: s.bindings.filter((b) => b.cluster !== 'eu-prod') }));
  step('per-tenant AppProjects', (s) => ({ ...s, perTenant: true }));
  step('custom sync policy', (s) => ({
    ...s,
    syncPolicy: { dev: { ...defaultSyncPolicy(false), syncOptions: ['ServerSideApply=true'] } },
  }));
}

const models = STEPS.map(([, shape]) => deliveryModel(shape));
const trees = models.map((m) => renderAll(m));
const clustersOf = (i: number) =>
  [
    ...new Set(
      models[i]!.tenants.flatMap((t) =>
        models[i]!.environments.map((e) => destinationOf(models[i]!, { tenant: t, environment: e.slug }).cluster),
      ),
    ),
  ].sort();
const bootstrap = (i: number, cluster: string | null): ArgoInstance =>
  instanceOfBootstrap(cluster ?? 'hub', ['', ...bootstrapDocuments(models[i]!, cluster)].join('---\n'));
const liveApplications = (instance: ArgoInstance, history: RepositoryTree[], kustomize: KustomizeRenderer) =>
  [...simulate(instance, history, { kustomize, scopeOf: kubeScopeOf }).live.values()]
    .map((e) => e.object)
    .filter((o) => isApplication(o) && o.metadata?.name?.startsWith('shop.'))
    .map((o) => o.metadata?.name)
    .sort();
const expectedApplications = (i: number, cluster: string | null) =>
  [...trees[i]!]
    .filter(([p]) => p.startsWith('applications/'))
    .flatMap(([, t]) => documentsOf(t))
    .filter(
      (a) =>
        cluster === null ||
        destinationOf(models[i]!, {
          tenant: a.metadata?.labels?.['delivery-platform/tenant'] ?? '',
          environment: a.metadata?.labels?.['delivery-platform/environment'] ?? '',
        }).cluster === cluster,
    )
    .map((a) => a.metadata?.name)
    .sort();

let kustomize: KustomizeRenderer;
beforeAll(async () => {
  kustomize = await realKustomize(trees);
}, 300_000);

describe('the acceptance repository: 2 tenants, 3 environments, 2 bound clusters', () => {
  it('lets every first sync through, the auto-created Namespace included, one owner per object, in both topologies', () => {
    const results = checkRepository(trees[0]!, { kustomize, scopeOf: kubeScopeOf });
    expect(results.map((r) => r.instance).sort()).toEqual([
      'argocd of eu-prod (applies shop-root-eu-prod)',
      'argocd of eu-staging (applies shop-root-eu-staging)',
      'argocd of in-cluster (applies shop-root-in-cluster)',
      'hub argocd (applies shop-root)',
    ]);
    expect(results.filter((r) => r.findings.length > 0)).toEqual([]);
    const live = liveApplications(bootstrap(0, null), trees.slice(0, 1), kustomize);
    expect(live).toEqual(expectedApplications(0, null));
    expect(live).toHaveLength(6);
  });

  it('fails the check when the AppProject does not allow the Namespace (the check can fail)', () => {
    const broken = new Map(trees[0]!);
    const project = broken.get('appprojects/shop.yaml') ?? '';
    broken.set(
      'appprojects/shop.yaml',
      project.replace(/clusterResourceWhitelist:\n( {4}- [\s\S]*?\n)(?= {2}\w)/, 'clusterResourceWhitelist: []\n'),
    );
    const findings = checkRepository(broken, { kustomize, scopeOf: kubeScopeOf }).flatMap((r) => r.findings);
    expect(findings).toContain(
      'Application shop.acme.production.api: resource :Namespace is not permitted in project shop (Namespace acme-production)',
    );
  });
});

describe.each(STEPS.map(([name], i) => [name, i] as const))('after "%s"', (_name, i) => {
  it('a fresh bootstrap of each Argo CD finds nothing', () => {
    expect(
      checkRepository(trees[i]!, { kustomize, scopeOf: kubeScopeOf }).filter((r) => r.findings.length > 0),
    ).toEqual([]);
  });

  it('the hub bootstrapped at the start follows every commit: the expected Applications, nothing stale', () => {
    const hub = bootstrap(0, null);
    expect(instanceFindings(hub, trees.slice(0, i + 1), { kustomize, scopeOf: kubeScopeOf })).toEqual([]);
    expect(liveApplications(hub, trees.slice(0, i + 1), kustomize)).toEqual(expectedApplications(i, null));
  });

  // A cluster that leaves the project leaves its Argo CD empty (its root prunes itself with what it loaded); when it
  // comes back, its bootstrap is applied again (docs/argocd.md).
  it('each cluster Argo CD, bootstrapped when its cluster (re)appeared, follows every later commit', () => {
    const clusters = new Set(trees.slice(0, i + 1).flatMap((_, k) => clustersOf(k)));
    for (const cluster of clusters) {
      let start = i;
      while (start > 0 && !(clustersOf(start).includes(cluster) && !clustersOf(start - 1).includes(cluster))) start--;
      const instance = bootstrap(start, cluster);
      const history = trees.slice(start, i + 1);
      expect([cluster, instanceFindings(instance, history, { kustomize, scopeOf: kubeScopeOf })]).toEqual([
        cluster,
        [],
      ]);
      expect([cluster, liveApplications(instance, history, kustomize)]).toEqual([
        cluster,
        expectedApplications(i, cluster),
      ]);
    }
  });
});
