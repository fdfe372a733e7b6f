import type { DomainModule } from '../runtime/domain-module';
import { provide } from '../runtime/service-provider';
import path from 'node:path';
import { repoRoot } from '../paths';
import { createKubeTools, type KubeTools } from '../tools/kube-tools';
import { createRenderers, type Renderers } from '../tools/renderers';
import type { BlobStore } from './blob-store';
import { createBlobStore } from './create-blob-store';
import { createChartCatalog, type ChartCatalog } from './chart-catalog';
import { createChartMetadata, type ChartMetadata } from './chart-metadata';
import { createRegistryService, type RegistryService } from './registry-service';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Registry blobs under DATA_DIR/registry or the configured object store. */
    blobs: BlobStore;
    /** helm and kubectl (configured paths or .tools). */
    kubeTools: KubeTools;
    /** helm and kustomize runs: the render queue and the sandboxed, capped process (src/tools/renderers.ts). */
    renderers: Renderers;
    /** The organization registry behind /v2/* (src/registry). */
    registry: RegistryService;
    /** Chart metadata read from pushed charts (a manifest hook of the registry). */
    chartMetadata: ChartMetadata;
    /** Helm charts of the registry (/api/v2/org-charts). */
    charts: ChartCatalog;
  }
}

/** What src/registry plugs into the platform (src/runtime/domain-module.ts). */
export const registryModule = {
  name: 'registry',
  tables: ['oci_manifests', 'oci_repositories', 'oci_repository_blobs', 'oci_tags', 'oci_uploads'],
  settings: 'registry',
  services: {
    blobs: provide([], (core) => {
      const store = createBlobStore(core.config.dataDir, core.config.registry.objectStore);
      // Issue 43, M2: a dead bucket makes the process not ready (pushes would answer 503), naming the bucket.
      if (core.config.registry.objectStore)
        core.readiness.add({ name: 'bucket', selfCheck: 'report', check: store.check });
      return store;
    }),
    kubeTools: provide([], (core) =>
      createKubeTools({
        helmPath: core.config.registry.helmPath,
        kubectlPath: core.config.registry.kubectlPath,
        toolsDir: path.join(repoRoot(), '.tools'),
      }),
    ),
    renderers: provide(['kubeTools'], (deps) => createRenderers(deps.kubeTools, deps.config.registry.renderers)),
    registry: provide(['blobs'], (deps) =>
      createRegistryService({ db: deps.db, audit: deps.audit, blobs: deps.blobs, config: deps.config.registry }),
    ),
    chartMetadata: provide(['blobs', 'registry'], (deps) => {
      const metadata = createChartMetadata({ blobs: deps.blobs });
      deps.registry.addManifestHook(metadata.hook);
      return metadata;
    }),
    charts: provide(['registry', 'chartMetadata'], (deps) =>
      createChartCatalog({ db: deps.db, registry: deps.registry, metadata: deps.chartMetadata }),
    ),
  },
  actions: {
    // Organization registry (/v2/*, OCI distribution): pulling for every member, pushing and deleting for members.
    'org.registry.pull': 'viewer',
    'org.registry.push': 'member',
    'org.registry.delete': 'member',
    // Chart catalog (/api/v2/org-charts): reading for every member, deleting a chart or a version for members.
    'org.charts.read': 'viewer',
    'org.charts.delete': 'member',
  },
} satisfies DomainModule;
