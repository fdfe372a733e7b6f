import { ConfigError, type Env, readBool, readInt, readOptional, readString, readUrl } from './parse';
import { loadRendererSettings, type RendererSettings } from './renderers';

export interface RegistryConfig {
  /** REGISTRY_MAX_BYTES_PER_ORG: bytes of distinct blobs one organization's repositories may link (413 beyond). */
  maxBytesPerOrg: number;
  /** REGISTRY_MAX_REPOSITORIES_PER_ORG: repositories one organization may hold (429 beyond). */
  maxRepositoriesPerOrg: number;
  /** REGISTRY_MAX_UPLOADS_PER_ORG: unfinished uploads one organization may hold at once (429 beyond). */
  maxUploadsPerOrg: number;
  /** REGISTRY_UPLOAD_TTL_SECONDS: an upload untouched this long is removed with its partial file. */
  uploadTtlSeconds: number;
  /** REGISTRY_TOKEN_TTL_SECONDS: lifetime of the registry tokens `/v2/token` issues. */
  tokenTtlSeconds: number;
  /** REGISTRY_MAX_BLOB_BYTES: largest single blob accepted. */
  maxBlobBytes: number;
  /** REGISTRY_GC_GRACE_SECONDS: registry-gc keeps unlinked blobs stored more recently than this (pushes in flight). */
  gcGraceSeconds: number;
  /** HELM_PATH: the helm binary that renders chart sources (unset: the bundled one, src/tools/kube-tools.ts). */
  helmPath?: string;
  /** KUBECTL_PATH: the kubectl whose `kubectl kustomize` builds kustomize folders (unset: the bundled one). */
  kubectlPath?: string;
  /** RENDER_*: memory, CPU and concurrency of helm and kustomize runs (src/config/renderers.ts). */
  renderers: RendererSettings;
  /** REGISTRY_S3_BUCKET and the rest: blobs and uploads in S3-compatible object storage; unset: under DATA_DIR. */
  objectStore: ObjectStoreConfig | undefined;
}

/** S3-compatible object storage (AWS S3, MinIO, Ceph RGW, GCS interoperability, ...) shared by every API process. */
export interface ObjectStoreConfig {
  /** REGISTRY_S3_BUCKET: an existing bucket; the platform creates no buckets. */
  bucket: string;
  /** REGISTRY_S3_ENDPOINT: the service's URL for a non-AWS store; unset: AWS S3 of the region. */
  endpoint: string | undefined;
  /** REGISTRY_S3_REGION (default us-east-1). */
  region: string;
  /** REGISTRY_S3_PREFIX: keys start with it (several deployments in one bucket); default none. */
  prefix: string;
  /** REGISTRY_S3_FORCE_PATH_STYLE: `endpoint/bucket/key` addressing (default: true when an endpoint is set). */
  forcePathStyle: boolean;
  /** REGISTRY_S3_ACCESS_KEY_ID and REGISTRY_S3_SECRET_ACCESS_KEY; unset: the AWS SDK's default credential chain. */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
}

function loadObjectStoreConfig(env: Env): ObjectStoreConfig | undefined {
  const bucket = readOptional(env, 'REGISTRY_S3_BUCKET');
  if (bucket === undefined) return undefined;
  const endpoint = readUrl(env, 'REGISTRY_S3_ENDPOINT', ['http:', 'https:']);
  const accessKeyId = readOptional(env, 'REGISTRY_S3_ACCESS_KEY_ID');
  const secretAccessKey = readOptional(env, 'REGISTRY_S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new ConfigError('REGISTRY_S3_ACCESS_KEY_ID and REGISTRY_S3_SECRET_ACCESS_KEY must be set together');
  }
  const prefix = readString(env, 'REGISTRY_S3_PREFIX', '').replace(/^\/+|\/+$/g, '');
  return {
    bucket,
    endpoint,
    region: readString(env, 'REGISTRY_S3_REGION', 'us-east-1'),
    prefix: prefix ? `${prefix}/` : '',
    forcePathStyle: readBool(env, 'REGISTRY_S3_FORCE_PATH_STYLE', endpoint !== undefined),
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
  };
}

const GIB = 1024 * 1024 * 1024;

export function loadRegistryConfig(env: Env): RegistryConfig {
  return {
    maxBytesPerOrg: readInt(env, 'REGISTRY_MAX_BYTES_PER_ORG', 10 * GIB, 1, Number.MAX_SAFE_INTEGER),
    maxRepositoriesPerOrg: readInt(env, 'REGISTRY_MAX_REPOSITORIES_PER_ORG', 1000, 1, 1_000_000),
    maxUploadsPerOrg: readInt(env, 'REGISTRY_MAX_UPLOADS_PER_ORG', 10, 1, 100_000),
    uploadTtlSeconds: readInt(env, 'REGISTRY_UPLOAD_TTL_SECONDS', 3600, 1, 7 * 24 * 3600),
    tokenTtlSeconds: readInt(env, 'REGISTRY_TOKEN_TTL_SECONDS', 300, 30, 3600),
    maxBlobBytes: readInt(env, 'REGISTRY_MAX_BLOB_BYTES', 5 * GIB, 1, Number.MAX_SAFE_INTEGER),
    gcGraceSeconds: readInt(env, 'REGISTRY_GC_GRACE_SECONDS', 3600, 0, 30 * 24 * 3600),
    helmPath: env.HELM_PATH?.trim() || undefined,
    kubectlPath: env.KUBECTL_PATH?.trim() || undefined,
    renderers: loadRendererSettings(env),
    objectStore: loadObjectStoreConfig(env),
  };
}
