/**
 * Reads a repository's manifests and blobs by digest for `imageCreated`: the organization registry's store, or an
 * external registry's API. Each answers null when the object is missing, unreadable or larger than `maxBytes`.
 */
export interface ImageReader {
  manifest(digest: string, maxBytes: number): Promise<string | null>;
  blob(digest: string, maxBytes: number): Promise<string | null>;
}

/** Manifests and configs larger than this are not read (an image config is a few KiB). */
export const IMAGE_DOCUMENT_MAX_BYTES = 1024 * 1024;

interface Descriptor {
  mediaType?: unknown;
  digest?: unknown;
  size?: unknown;
  platform?: { os?: unknown; architecture?: unknown };
}

const parse = (text: string): Record<string, unknown> | null => {
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
};

const usable = (d: Descriptor | undefined): d is Descriptor & { digest: string } =>
  d !== undefined &&
  typeof d.digest === 'string' &&
  /^sha256:[0-9a-f]{64}$/.test(d.digest) &&
  (typeof d.size !== 'number' || d.size <= IMAGE_DOCUMENT_MAX_BYTES);

/** The linux/amd64 manifest of an index (OCI image index, Docker manifest list), else its first one. */
function platformManifest(manifests: Descriptor[]): Descriptor | undefined {
  return manifests.find((m) => m.platform?.os === 'linux' && m.platform.architecture === 'amd64') ?? manifests.at(0);
}

/**
 * When an image was created: the `created` field of its config (OCI image spec, Docker image config), read through the
 * manifest; an index or manifest list is followed once, to its linux/amd64 manifest or its first. Null when there is
 * none (an artifact, a config without `created`, a document missing, malformed or above IMAGE_DOCUMENT_MAX_BYTES).
 */
export async function imageCreated(reader: ImageReader, manifest: string): Promise<Date | null> {
  let doc = parse(manifest);
  if (doc && Array.isArray(doc.manifests)) {
    const child = platformManifest(doc.manifests as Descriptor[]);
    if (!usable(child)) return null;
    const fetched = await reader.manifest(child.digest, IMAGE_DOCUMENT_MAX_BYTES);
    doc = fetched === null ? null : parse(fetched);
    if (doc && Array.isArray(doc.manifests)) return null;
  }
  const config = doc?.config as Descriptor | undefined;
  if (!usable(config)) return null;
  const text = await reader.blob(config.digest, IMAGE_DOCUMENT_MAX_BYTES);
  const created = text === null ? undefined : parse(text)?.created;
  if (typeof created !== 'string') return null;
  const time = Date.parse(created);
  return Number.isNaN(time) ? null : new Date(time);
}
