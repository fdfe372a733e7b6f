import { buffer } from 'node:stream/consumers';
import { parse } from 'yaml';
import type { Db } from '../db/knex';
import { NotFound } from '../errors';
import { HELM_CHART_LAYER, HELM_CONFIG } from './manifest';
import { listTaggedManifests, repositoriesWithMediaType, type OciRepository } from './registry-repository';
import type { RegistryCaller, RegistryService } from './registry-service';
import { filesOfTarGz } from './tar-reader';

const CHART_MAX_BYTES = 20 * 1024 * 1024;
const emptyMeta: ChartMeta = { appVersion: null, description: null, valuesSchema: null };

export interface ChartVersion {
  version: string;
  digest: string;
  appVersion: string | null;
  description: string | null;
  /** values.schema.json when the chart carries one. */
  valuesSchema: unknown;
}

type ChartMeta = Omit<ChartVersion, 'version' | 'digest'>;

export interface Chart {
  /** Repository name inside the organization, e.g. `charts/web`. */
  name: string;
  versions: ChartVersion[];
}

/**
 * Chart.yaml (and values.schema.json) of the chart directory at the top of the tarball. A layer that is not a readable
 * chart (corrupt, over the size limit, bad YAML or JSON) lists with empty metadata rather than failing the catalog.
 */
function chartFiles(archive: Buffer): ChartMeta {
  try {
    return readChart(archive);
  } catch {
    return emptyMeta;
  }
}

function readChart(archive: Buffer): ChartMeta {
  const files = filesOfTarGz(archive, CHART_MAX_BYTES);
  const find = (file: string) =>
    [...files].find(([name]) => /^[^/]+\/[^/]+$/.test(name) && name.endsWith(`/${file}`))?.[1];
  const chartYaml = find('Chart.yaml');
  const schema = find('values.schema.json');
  const meta = (chartYaml ? parse(chartYaml.toString('utf8')) : {}) as Record<string, unknown>;
  return {
    appVersion: typeof meta.appVersion === 'string' ? meta.appVersion : null,
    description: typeof meta.description === 'string' ? meta.description : null,
    valuesSchema: schema ? (JSON.parse(schema.toString('utf8')) as unknown) : null,
  };
}

/**
 * The organization's Helm charts: repositories holding manifests whose config is a Helm chart config, one version per
 * tag, metadata read from Chart.yaml in the chart layer. Deleting goes through the registry (audited there).
 */
export function createChartCatalog(deps: { db: Db; registry: RegistryService }) {
  const { db, registry } = deps;

  async function versionsOf(repository: OciRepository): Promise<ChartVersion[]> {
    const versions: ChartVersion[] = [];
    for (const { tag, manifest } of await listTaggedManifests(db, repository.id)) {
      if (manifest.configMediaType !== HELM_CONFIG) continue;
      const doc = JSON.parse(manifest.content.toString('utf8')) as { layers?: { mediaType: string; digest: string }[] };
      const layer = doc.layers?.find((l) => l.mediaType === HELM_CHART_LAYER);
      const archive = layer ? await buffer(registry.blobs.read(layer.digest)) : null;
      versions.push({ version: tag, digest: manifest.digest, ...(archive ? chartFiles(archive) : emptyMeta) });
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
