import { ApiError, registryFetch } from './client';

/** `sha256:<hex>` of some bytes (Web Crypto; the page is same-origin over http://127.0.0.1 or https). */
export async function digestOf(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return `sha256:${Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** The registry's refusal in its own words (`DENIED: your role does not allow push on this repository`). */
async function refusal(res: Response, what: string): Promise<ApiError> {
  let detail = `${res.status} ${res.statusText}`;
  try {
    const body = (await res.json()) as { errors?: { code: string; message: string }[] };
    const first = body.errors?.[0];
    if (first) detail = `${first.code}: ${first.message}`;
  } catch {
    // not JSON: the status says it
  }
  return new ApiError(res.status, `${what[0]!.toUpperCase()}${what.slice(1)} was refused: ${detail}`);
}

/** One blob, uploaded monolithically (`POST /v2/<repo>/blobs/uploads/?digest=`); answers its descriptor. */
async function pushBlob(repo: string, bytes: Uint8Array<ArrayBuffer>, mediaType: string, what: string) {
  const digest = await digestOf(bytes);
  const res = await registryFetch(`/v2/${repo}/blobs/uploads/?digest=${encodeURIComponent(digest)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/octet-stream' },
    body: bytes,
  });
  if (res.status !== 201) throw await refusal(res, `the ${what} upload`);
  return { mediaType, digest, size: bytes.byteLength };
}

/**
 * Pushes a packaged Helm chart the way `helm push` does: the config blob (Chart.yaml as JSON), the chart archive as
 * the layer, then the manifest tagged with the chart's version.
 */
export async function pushChart(repo: string, version: string, chart: object, archive: Uint8Array<ArrayBuffer>) {
  const config = await pushBlob(
    repo,
    new TextEncoder().encode(JSON.stringify(chart)),
    'application/vnd.cncf.helm.config.v1+json',
    'chart config',
  );
  const layer = await pushBlob(repo, archive, 'application/vnd.cncf.helm.chart.content.v1.tar+gzip', 'chart archive');
  const mediaType = 'application/vnd.oci.image.manifest.v1+json';
  const res = await registryFetch(`/v2/${repo}/manifests/${encodeURIComponent(version)}`, {
    method: 'PUT',
    headers: { 'Content-Type': mediaType },
    body: JSON.stringify({ schemaVersion: 2, mediaType, config, layers: [layer] }),
  });
  if (res.status !== 201) throw await refusal(res, 'the manifest');
}
