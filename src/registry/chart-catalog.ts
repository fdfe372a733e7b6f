import type { Db } from '../db/knex';
import { NotFound } from '../errors';
import { parseJson } from '../parse/bounded-parse';
import { HELM_CHART_LAYER, HELM_CONFIG } from './manifest';
import { listTaggedManifests, repositoriesWithMediaType, type OciRepository } from './registry-repository';
import type { RegistryCaller, RegistryService } from './registry-service';
import { EMPTY_CHART_META, type ChartMeta, type ChartMetadata } from './chart-metadata';

interface ChartManifest {
  layers?: { mediaType: string; digest: string }[];
}

export interface ChartVersion extends ChartMeta {
  version: string;
  digest: string;
}

export interface Chart {
  /** Repository name inside the organization, e.g. `charts/web`. */
  name: string;
  versions: ChartVersion[];
}

/**
 * The organization's Helm charts: repositories holding manifests whose config is a Helm chart config, one version per
 * tag, metadata read from Chart.yaml in the chart layer once (chart-metadata.ts). Deleting goes through the registry (audited there).
 */
export function createChartCatalog(deps: { db: Db; registry: RegistryService; metadata: ChartMetadata }) {
  const { db, registry, metadata } = deps;

  async function versionsOf(repository: OciRepository): Promise<ChartVersion[]> {
    const versions: ChartVersion[] = [];
    for (const { tag, manifest } of await listTaggedManifests(db, repository.id)) {
      if (manifest.configMediaType !== HELM_CONFIG) continue;
      const doc = parseJson(manifest.content.toString('utf8'), 'chart manifest') as ChartManifest;
      const layer = doc.layers?.find((l) => l.mediaType === HELM_CHART_LAYER);
      const meta = layer ? await metadata.of(layer.digest) : EMPTY_CHART_META;
      versions.push({ version: tag, digest: manifest.digest, ...meta });
    }
    return versions;
  }

  async function chartRepository(organizationId: string, name: string) {
    const repository = await registry.findRepository(organizationId, name);
    const versions = repository ? await versionsOf(repository) : [];
    if (!repository || versions.length === 0) throw new NotFound('chart not found');
    return { repository, versions };
  }

  return {
    async list(organizationId: string): Promise<Chart[]> {
      const charts: Chart[] = [];
      for (const repository of await repositoriesWithMediaType(db, organizationId, HELM_CONFIG)) {
        charts.push({ name: repository.name, versions: await versionsOf(repository) });
      }
      return charts;
    },
    async get(organizationId: string, name: string): Promise<Chart> {
      return { name, versions: (await chartRepository(organizationId, name)).versions };
    },
    /** Deletes every version of the chart (its manifests); blobs go at the next garbage collection. */
    async remove(caller: RegistryCaller, name: string) {
      const { repository, versions } = await chartRepository(caller.organizationId, name);
      for (const digest of new Set(versions.map((v) => v.digest))) {
        await registry.deleteManifest(caller, repository, digest);
      }
    },
    async removeVersion(caller: RegistryCaller, name: string, version: string) {
      const { repository, versions } = await chartRepository(caller.organizationId, name);
      const found = versions.find((v) => v.version === version);
      if (!found) throw new NotFound('chart version not found');
      await registry.deleteManifest(caller, repository, found.digest);
    },
  };
}
export type ChartCatalog = ReturnType<typeof createChartCatalog>;
