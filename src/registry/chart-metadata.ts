import { buffer } from 'node:stream/consumers';
import { CHART_ARCHIVE_LIMITS, filesOfTarGz } from '../archive/tar-gz';
import { AppError } from '../errors';
import { parseJson, parseYaml } from '../parse/bounded-parse';
import type { BlobStore } from './blob-store';
import { HELM_CHART_LAYER, HELM_CONFIG } from './manifest';
import { OciError } from './oci-errors';
import type { ManifestHook } from './registry-service';

/** What the chart catalog lists of a chart version, read from Chart.yaml and values.schema.json. */
export interface ChartMeta {
  appVersion: string | null;
  description: string | null;
  /** values.schema.json when the chart carries one. */
  valuesSchema: unknown;
}

export const EMPTY_CHART_META: ChartMeta = { appVersion: null, description: null, valuesSchema: null };
/** Chart layers whose metadata one process keeps (a few hundred bytes to a few KiB each). */
const CACHE_ENTRIES = 5_000;

/** Chart.yaml (and values.schema.json) of the chart directory at the top of the tarball, bounded in every step. */
export async function readChartMeta(archive: Buffer): Promise<ChartMeta> {
  const files = await filesOfTarGz(archive, CHART_ARCHIVE_LIMITS);
  const find = (file: string) =>
    [...files].find(([name]) => /^[^/]+\/[^/]+$/.test(name) && name.endsWith(`/${file}`))?.[1];
  const chartYaml = find('Chart.yaml');
  const schema = find('values.schema.json');
  const parsed = chartYaml ? parseYaml(chartYaml.toString('utf8'), 'Chart.yaml') : {};
  const meta = (parsed !== null && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
  return {
    appVersion: typeof meta.appVersion === 'string' ? meta.appVersion : null,
    description: typeof meta.description === 'string' ? meta.description : null,
    valuesSchema: schema ? parseJson(schema.toString('utf8'), 'values.schema.json') : null,
  };
}

/**
 * Chart metadata by chart layer digest (content-addressed, so an entry never goes stale). A layer is read once per
 * process: at push (the registry hook below) or, for layers pushed before this process started, at the first listing;
 * a layer that is not a readable chart lists with empty metadata and is not read again.
 */
export function createChartMetadata(deps: { blobs: Pick<BlobStore, 'read' | 'stat'> }) {
  const cache = new Map<string, ChartMeta>();
  const remember = (digest: string, meta: ChartMeta) => {
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(digest, meta);
    return meta;
  };

  async function readLayer(digest: string): Promise<ChartMeta> {
    const size = await deps.blobs.stat(digest);
    if (size === null) return EMPTY_CHART_META;
    if (size > CHART_ARCHIVE_LIMITS.maxTotalBytes) {
      throw new OciError('MANIFEST_INVALID', `the chart archive is over ${CHART_ARCHIVE_LIMITS.maxTotalBytes} bytes`);
    }
    return readChartMeta(await buffer(deps.blobs.read(digest)));
  }

  return {
    /** The metadata of a chart layer, read at most once. */
    async of(layerDigest: string): Promise<ChartMeta> {
      const known = cache.get(layerDigest);
      if (known) return known;
      const meta = await readLayer(layerDigest).catch(() => EMPTY_CHART_META);
      return remember(layerDigest, meta);
    },

    /** Refuses a Helm chart push whose chart layer is not a readable chart (400 MANIFEST_INVALID), else caches it. */
    hook: {
      async pushed(_caller, { manifest }) {
        if (manifest.configMediaType !== HELM_CONFIG) return;
        const layer = manifest.blobs.find((b) => b.mediaType === HELM_CHART_LAYER);
        if (!layer || cache.has(layer.digest)) return;
        try {
          remember(layer.digest, await readLayer(layer.digest));
        } catch (err) {
          if (err instanceof OciError) throw err;
          const reason = err instanceof AppError ? err.message : 'unreadable';
          throw new OciError('MANIFEST_INVALID', `the chart layer is not a readable chart: ${reason}`);
        }
      },
      deleting() {},
    } satisfies ManifestHook,
  };
}
export type ChartMetadata = ReturnType<typeof createChartMetadata>;
