import { AppError } from '../errors';
import { decodeWellFormed, refuseIllFormedText } from '../http/text-guard';
import { parseJson } from '../parse/bounded-parse';
import { DIGEST, digestOf, type DigestAlgorithm } from './digest';
import { OciError } from './oci-errors';

export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
const DOCKER_MANIFEST = 'application/vnd.docker.distribution.manifest.v2+json';
const DOCKER_LIST = 'application/vnd.docker.distribution.manifest.list.v2+json';
/** The config media type of a Helm chart (an OCI image manifest whose layer is the chart tarball). */
export const HELM_CONFIG = 'application/vnd.cncf.helm.config.v1+json';
export const HELM_CHART_LAYER = 'application/vnd.cncf.helm.chart.content.v1.tar+gzip';

const INDEX_TYPES = new Set([OCI_INDEX, DOCKER_LIST]);
export const MANIFEST_TYPES = new Set([OCI_MANIFEST, DOCKER_MANIFEST, ...INDEX_TYPES]);

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  artifactType?: string;
  annotations?: Record<string, string>;
}

/** What the registry records of every manifest (src/registry/registry-repository.ts stores it with the content). */
export interface ManifestFields {
  digest: string;
  mediaType: string;
  /** `artifactType`, else the config media type of an image manifest (the referrers API reports it). */
  artifactType: string | null;
  configMediaType: string | null;
  subjectDigest: string | null;
  annotations: Record<string, string> | null;
}

/** What the registry needs to know of a pushed manifest. */
export interface ParsedManifest extends ManifestFields {
  /** Blobs (config and layers) the repository must already hold. */
  blobs: Descriptor[];
  /** Manifests an index names, which the repository must already hold. */
  manifests: Descriptor[];
}

export function sha256Digest(content: Buffer): string {
  return digestOf(content, 'sha256');
}

/**
 * Layers the image spec lets a registry not hold (their content is fetched from their `urls`): the OCI
 * non-distributable layer types and Docker's foreign layers.
 */
export function isNondistributable(mediaType: string): boolean {
  return (
    mediaType.startsWith('application/vnd.oci.image.layer.nondistributable.') ||
    mediaType.startsWith('application/vnd.docker.image.rootfs.foreign.')
  );
}

function invalid(message: string): never {
  throw new OciError('MANIFEST_INVALID', message);
}

function descriptor(value: unknown, where: string): Descriptor {
  const d = value as Partial<Descriptor> | null;
  if (typeof d !== 'object' || d === null) invalid(`${where} is not a descriptor`);
  if (typeof d.mediaType !== 'string' || typeof d.digest !== 'string' || !DIGEST.test(d.digest)) {
    invalid(`${where} needs a mediaType and a sha256 or sha512 digest`);
  }
  if (typeof d.size !== 'number' || !Number.isSafeInteger(d.size) || d.size < 0) invalid(`${where} needs a size`);
  return d as Descriptor;
}

function descriptors(value: unknown, where: string): Descriptor[] {
  if (!Array.isArray(value)) invalid(`${where} must be an array`);
  return value.map((d, i) => descriptor(d, `${where}[${i}]`));
}

/**
 * Parses a pushed manifest: an OCI image manifest (Helm charts and ORAS artifacts are ones), an OCI image index, or
 * their Docker v2 equivalents. `contentType` is the request's Content-Type; a `mediaType` in the body must agree. The
 * manifest's digest uses `algorithm` (a push by sha512 digest is stored under it).
 */
export function parseManifest(
  content: Buffer,
  contentType: string,
  algorithm: DigestAlgorithm = 'sha256',
): ParsedManifest {
  let doc: Record<string, unknown>;
  try {
    doc = parseJson(decodeWellFormed(content), 'the manifest') as Record<string, unknown>;
    refuseIllFormedText({ body: doc });
  } catch (err) {
    invalid(
      err instanceof AppError
        ? `the manifest is not well-formed JSON text (${err.message})`
        : 'the manifest is not JSON',
    );
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) invalid('the manifest is not a JSON object');
  if (doc.schemaVersion !== 2) invalid('schemaVersion must be 2');
  const mediaType = typeof doc.mediaType === 'string' ? doc.mediaType : contentType.split(';')[0]!.trim();
  if (!MANIFEST_TYPES.has(mediaType)) invalid(`unsupported manifest media type ${mediaType || '(none)'}`);
  if (typeof doc.mediaType === 'string' && contentType && contentType.split(';')[0]!.trim() !== doc.mediaType) {
    invalid('the Content-Type does not match the mediaType of the manifest');
  }
  const subject = doc.subject === undefined ? null : descriptor(doc.subject, 'subject');
  const annotations =
    typeof doc.annotations === 'object' && doc.annotations !== null
      ? (doc.annotations as Record<string, string>)
      : null;
  const base = { digest: digestOf(content, algorithm), mediaType, subjectDigest: subject?.digest ?? null, annotations };
  const artifactType = typeof doc.artifactType === 'string' ? doc.artifactType : null;
  if (INDEX_TYPES.has(mediaType)) {
    return {
      ...base,
      artifactType,
      configMediaType: null,
      blobs: [],
      manifests: descriptors(doc.manifests, 'manifests'),
    };
  }
  const config = descriptor(doc.config, 'config');
  const layers = descriptors(doc.layers, 'layers');
  return {
    ...base,
    artifactType: artifactType ?? config.mediaType,
    configMediaType: config.mediaType,
    blobs: [config, ...layers],
    manifests: [],
  };
}
