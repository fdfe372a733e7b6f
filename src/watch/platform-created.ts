import { buffer } from 'node:stream/consumers';
import type { RegistryService } from '../registry/registry-service';
import { createdOrderTags } from './created-order';
import { IMAGE_DOCUMENT_MAX_BYTES, imageCreated, type ImageReader } from './image-created';
import type { CandidateTag, WatchPolicy } from './watch-policy';

/** Manifests whose creation time one process keeps (a digest and a number each). */
const CACHE_ENTRIES = 20_000;

export type PlatformCreated = ReturnType<typeof createPlatformCreated>;

/**
 * The image creation time of the organization registry's tags, for policies ordered by it: read from each image's
 * config in the registry's own store once per manifest digest (content-addressed, so an entry never goes stale) and
 * kept in memory. A manifest without one (an artifact, a config lacking `created`) keeps when it was stored.
 */
export function createPlatformCreated(deps: {
  registry: Pick<RegistryService, 'findRepository' | 'getManifest' | 'blobSize' | 'blobs'>;
}) {
  const cache = new Map<string, number | null>();

  return {
    /** The candidates with `createdAt` the image's creation time where some policy orders by it. */
    async withCreated(
      organizationId: string,
      name: string,
      policies: readonly WatchPolicy[],
      candidates: readonly CandidateTag[],
    ): Promise<CandidateTag[]> {
      const wanted = new Set(
        createdOrderTags(
          policies,
          candidates.map((c) => c.tag),
        ),
      );
      const repository = wanted.size > 0 ? await deps.registry.findRepository(organizationId, name) : null;
      if (!repository) return [...candidates];
      const reader: ImageReader = {
        async manifest(digest, maxBytes) {
          const m = await deps.registry.getManifest(repository, digest);
          return m && m.content.length <= maxBytes ? m.content.toString('utf8') : null;
        },
        async blob(digest, maxBytes) {
          const size = await deps.registry.blobSize(repository, digest);
          if (size === null || size > maxBytes) return null;
          return (await buffer(deps.registry.blobs.read(digest))).toString('utf8');
        },
      };
      const out: CandidateTag[] = [];
      for (const c of candidates) {
        if (wanted.has(c.tag) && !cache.has(c.digest)) {
          const manifest = await reader.manifest(c.digest, IMAGE_DOCUMENT_MAX_BYTES);
          const created = manifest === null ? null : await imageCreated(reader, manifest);
          if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
          cache.set(c.digest, created?.getTime() ?? null);
        }
        const created = wanted.has(c.tag) ? cache.get(c.digest) : null;
        out.push(created === null || created === undefined ? c : { ...c, createdAt: new Date(created) });
      }
      return out;
    },
  };
}
