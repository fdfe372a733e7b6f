import { buffer } from 'node:stream/consumers';
import type { BlobStore } from '../registry/blob-store';
import { OciError } from '../registry/oci-errors';
import { TITLE_ANNOTATION, type ManifestHook } from '../registry/registry-service';
import { CATALOG_ARTIFACTS, KUBERNETES_VERSION_ANNOTATION, catalogTargetOf } from './catalog-artifacts';
import { CATALOG_MAX_TOTAL_BYTES } from './catalog-files';
import type { CatalogKind } from './catalog-repository';
import type { CatalogService } from './catalog-service';

const invalid = (message: string): never => {
  throw new OciError('MANIFEST_INVALID', message);
};

/**
 * Kustomize bases and manifest bundles pushed as OCI artifacts: a manifest pushed by tag to
 * `kustomize-bases/<name>` or `manifest-bundles/<name>` with the kind's config media type registers version `<tag>`
 * in the catalog after the same validation as an API upload (the base built before the push's transaction, the
 * version recorded in it; a refusal stores nothing).
 * Deletions go through the catalog routes, which remove the artifact too.
 */
export function catalogRegistryHook(deps: {
  blobs: Pick<BlobStore, 'read' | 'stat'>;
  catalogs: Record<CatalogKind, CatalogService>;
}): ManifestHook {
  return {
    async pushed(caller, { name, tag, manifest }) {
      const target = catalogTargetOf(name);
      const typed = (Object.entries(CATALOG_ARTIFACTS) as [CatalogKind, { configMediaType: string }][]).find(
        ([, a]) => a.configMediaType === manifest.configMediaType,
      )?.[0];
      if (!target && !typed) return;
      const kind = target?.kind ?? typed!;
      const { prefix, configMediaType } = CATALOG_ARTIFACTS[kind];
      if (!target || typed !== target.kind) {
        invalid(`a ${kind} is pushed to ${prefix}<name> with the config media type ${configMediaType}`);
      }
      if (tag === null) invalid(`push a ${kind} by tag: the tag is its version`);
      const layers = manifest.blobs.slice(1);
      // The stored sizes, not the descriptors' (which nothing ties to the blobs), bound what is read into memory.
      let total = 0;
      for (const layer of layers) total += (await deps.blobs.stat(layer.digest)) ?? 0;
      if (total > CATALOG_MAX_TOTAL_BYTES) {
        invalid(`the files of a ${kind} hold at most ${CATALOG_MAX_TOTAL_BYTES} bytes`);
      }
      const files: Record<string, string> = {};
      for (const layer of layers) {
        const title = layer.annotations?.[TITLE_ANNOTATION];
        if (!title) invalid(`every layer of a ${kind} needs its file path in ${TITLE_ANNOTATION}`);
        files[title!] = (await buffer(deps.blobs.read(layer.digest))).toString('utf8');
      }
      const kubernetesVersion = manifest.annotations?.[KUBERNETES_VERSION_ANNOTATION];
      return deps.catalogs[kind].preparePushed(caller, {
        name: target!.name,
        version: tag!,
        ...(kubernetesVersion ? { kubernetesVersion } : {}),
        files,
      });
    },
    deleting(repository) {
      const target = catalogTargetOf(repository.name);
      if (target) {
        const route = target.kind === 'kustomize-base' ? 'org-kustomize-bases' : 'org-manifest-bundles';
        throw new OciError('UNSUPPORTED', `delete ${target.kind} versions through /api/v2/${route}`);
      }
    },
  };
}
