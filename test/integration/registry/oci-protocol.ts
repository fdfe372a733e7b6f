import { sha } from './oci-layout';

/** A raw client of the distribution API with Basic credentials (an access token as the password). */
export function ociClient(baseUrl: string, token: string) {
  const auth = `Basic ${Buffer.from(`token:${token}`).toString('base64')}`;
  async function call(method: string, path: string, body?: Buffer | string, headers: Record<string, string> = {}) {
    const res = await fetch(`${baseUrl}${path}`, { method, body, headers: { Authorization: auth, ...headers } });
    const bytes = Buffer.from(await res.arrayBuffer());
    let json: { errors?: { code: string }[] } & Record<string, unknown> = {};
    try {
      json = JSON.parse(bytes.toString('utf8')) as typeof json;
    } catch {
      // a blob, not JSON
    }
    return { status: res.status, headers: res.headers, bytes, json, code: json.errors?.[0]?.code };
  }
  return {
    call,
    /** Monolithic upload: POST with `?digest=`. */
    pushBlob: (repo: string, data: Buffer | string, digest = sha(data)) =>
      call('POST', `/v2/${repo}/blobs/uploads/?digest=${digest}`, data, { 'Content-Type': 'application/octet-stream' }),
    pushManifest: (
      repo: string,
      ref: string,
      manifest: object,
      mediaType = 'application/vnd.oci.image.manifest.v1+json',
    ) => call('PUT', `/v2/${repo}/manifests/${ref}`, JSON.stringify(manifest), { 'Content-Type': mediaType }),
  };
}

export const EMPTY_CONFIG = { mediaType: 'application/vnd.oci.empty.v1+json', digest: sha('{}'), size: 2 };

/** An artifact manifest over one layer (and an optional subject), with the empty config. */
export function artifactManifest(layer: string, artifactType: string, subject?: { digest: string; size: number }) {
  return {
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    artifactType,
    config: EMPTY_CONFIG,
    layers: [{ mediaType: 'application/octet-stream', digest: sha(layer), size: Buffer.byteLength(layer) }],
    ...(subject ? { subject: { mediaType: 'application/vnd.oci.image.manifest.v1+json', ...subject } } : {}),
  };
}
