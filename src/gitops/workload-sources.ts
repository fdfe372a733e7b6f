import { buffer } from 'node:stream/consumers';
import type { Queryable } from '../db/knex';
import { Unprocessable } from '../errors';
import { parseJson } from '../parse/bounded-parse';
import { dumpFileYaml } from '../parse/file-yaml';
import { findCatalogVersion } from '../catalog/catalog-repository';
import { applyOverrides, objectsOf, type KubeObject } from '../tools/kustomize-render';
import type { Renderers } from '../tools/renderers';
import { kustomizeBuild } from '../tools/kustomize-build';
import type { BlobStore } from '../registry/blob-store';
import { renderChart } from '../registry/chart-render';
import { HELM_CHART_LAYER, HELM_CONFIG } from '../registry/manifest';
import { findManifest, findRepository } from '../registry/registry-repository';
import {
  effectiveSpec,
  type WorkloadOverrides,
  type WorkloadSource,
  type WorkloadSpec,
} from '../projects/workload-spec';

/** One generated file of a rendered source: `<kind>-<name>.yaml` beside the target's kustomization. */
export interface RenderedFile {
  file: string;
  content: string;
}

/** Rendered files of a workload by `<tenant>/<environment>`. */
export type RenderedTargets = Map<string, RenderedFile[]>;

export interface SourceModel {
  tenants: string[];
  environments: { slug: string; kubernetesVersion: string }[];
  workloads: { name: string; spec: WorkloadSpec; overrides: WorkloadOverrides }[];
  /** Destination namespaces by `<tenant>/<environment>` (charts render into them); the tenant's slug otherwise. */
  destinations?: Map<string, { argo: { namespace: string } }>;
}

/** A chart archive read into memory to render, at most (its files unpack to 20 MiB at most, chart-render.ts). */
const CHART_ARCHIVE_MAX_BYTES = 10 * 1024 * 1024;

/** Overrides of a trial render (only whether the base renders matters). */
const CHECK_OVERRIDES = { image: { repository: '', tag: 'check' }, replicas: 1 };

const describe = (s: WorkloadSource) => `${s.kind} ${s.name} ${s.version}`;

/** One file per object, named after its kind and name (a repeated pair gets a number). */
export function filesOf(objects: KubeObject[]): RenderedFile[] {
  const used = new Set<string>();
  return objects.map((obj, i) => {
    const slug = (v: unknown) =>
      String(v ?? '')
        .toLowerCase()
        .replace(/[^a-z0-9.-]+/g, '-')
        .slice(0, 100);
    let file = `${slug(obj.kind) || 'object'}-${slug(obj.metadata?.name) || i}.yaml`;
    for (let n = 2; used.has(file); n += 1) file = file.replace(/(?:-\d+)?\.yaml$/, `-${n}.yaml`);
    used.add(file);
    return { file, content: dumpFileYaml(obj) };
  });
}

export type WorkloadSources = ReturnType<typeof createWorkloadSources>;

/**
 * Renders the workloads that reference an organization chart version (pushed to the registry) or a kustomize base
 * version (src/catalog) for every target, with each target's effective image tag and replicas. Identical inputs render
 * once. A missing version, or a source the renderers cannot render, answers 422.
 */
export function createWorkloadSources(deps: { blobs: BlobStore; renderers: Renderers }) {
  /** A kustomize base rendered by the real kustomize, then the workload's image tag and replicas applied. */
  async function renderBase(organizationId: string, files: Record<string, string>, overrides: typeof CHECK_OVERRIDES) {
    const built = await kustomizeBuild(deps.renderers, organizationId, files);
    return applyOverrides(objectsOf('kustomize build output', built), overrides);
  }

  async function chartArchive(db: Queryable, organizationId: string, source: WorkloadSource): Promise<Buffer> {
    const repository = await findRepository(db, organizationId, source.name);
    // helm stores a version's `+` (build metadata) as `_` in the OCI tag, and reads it back the same way.
    const manifest = repository ? await findManifest(db, repository.id, source.version.replace(/\+/g, '_')) : null;
    if (!manifest || manifest.configMediaType !== HELM_CONFIG) {
      throw new Unprocessable(`${describe(source)} is not in the organization registry`);
    }
    const doc = parseJson(manifest.content.toString('utf8'), 'chart manifest') as {
      layers?: { mediaType: string; digest: string }[];
    };
    const layer = doc.layers?.find((l) => l.mediaType === HELM_CHART_LAYER);
    if (!layer) throw new Unprocessable(`${describe(source)} has no chart layer`);
    if (((await deps.blobs.stat(layer.digest)) ?? 0) > CHART_ARCHIVE_MAX_BYTES) {
      throw new Unprocessable(`${describe(source)}: the chart archive is over ${CHART_ARCHIVE_MAX_BYTES} bytes`);
    }
    return buffer(deps.blobs.read(layer.digest));
  }

  async function baseFiles(db: Queryable, organizationId: string, source: WorkloadSource) {
    const version = await findCatalogVersion(db, organizationId, 'kustomize-base', source.name, source.version);
    if (!version) throw new Unprocessable(`${describe(source)} is not in the organization catalog`);
    return version.files;
  }

  return {
    /**
     * When a workload is saved: the version exists, and a kustomize base builds with the real kustomize (a chart is
     * rendered at delivery time, for each target's values).
     */
    async check(db: Queryable, organizationId: string, source: WorkloadSource): Promise<void> {
      if (source.kind === 'chart') await chartArchive(db, organizationId, source);
      else await renderBase(organizationId, await baseFiles(db, organizationId, source), CHECK_OVERRIDES);
    },

    async render(db: Queryable, organizationId: string, model: SourceModel): Promise<Map<string, RenderedTargets>> {
      const out = new Map<string, RenderedTargets>();
      for (const w of model.workloads) {
        if (!w.spec.source) continue;
        const files =
          w.spec.source.kind === 'kustomize-base' ? await baseFiles(db, organizationId, w.spec.source) : null;
        // A chart target may run its own version (a watched chart update, `chartVersion`): each version read once.
        const archives = new Map<string, Promise<Buffer>>();
        const archiveOf = (source: WorkloadSource) => {
          let archive = archives.get(source.version);
          if (!archive) archives.set(source.version, (archive = chartArchive(db, organizationId, source)));
          return archive;
        };
        const memo = new Map<string, Promise<RenderedFile[]>>();
        const targets: RenderedTargets = new Map();
        for (const tenant of model.tenants)
          for (const env of model.environments) {
            const spec = effectiveSpec(w.spec, w.overrides, tenant, env.slug);
            const source = spec.source ?? w.spec.source;
            const overrides = { image: spec.image, replicas: spec.replicas };
            const namespace = model.destinations?.get(`${tenant}/${env.slug}`)?.argo.namespace;
            const key = JSON.stringify([tenant, namespace, env.kubernetesVersion, overrides, source.version]);
            let rendered = memo.get(key);
            if (!rendered) {
              rendered = !files
                ? renderChart(deps.renderers, organizationId, {
                    ref: `${source.name}:${source.version}`,
                    archive: await archiveOf(source),
                    releaseName: w.name,
                    namespace: model.destinations?.get(`${tenant}/${env.slug}`)?.argo.namespace ?? tenant,
                    kubernetesVersion: env.kubernetesVersion,
                    values: source.values ?? {},
                    overrides,
                  }).then(filesOf)
                : renderBase(organizationId, files, overrides).then(filesOf);
              memo.set(key, rendered);
            }
            targets.set(`${tenant}/${env.slug}`, await rendered);
          }
        out.set(w.name, targets);
      }
      return out;
    },
  };
}
