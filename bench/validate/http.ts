import { buildManifest } from './corpus-file';
import { elapsedMs, summarize, type LatencySummary } from './stats';

/**
 * POSTs `requests` manifests of `perRequest` resources each, one after another, to
 * `<baseUrl>/api/v2/k8s/validate` and summarizes the latencies (for the lead's HTTP figures).
 */
export async function measureHttp(
  baseUrl: string,
  token: string,
  docs: readonly string[],
  options: { version?: string; requests?: number; perRequest?: number } = {},
): Promise<LatencySummary> {
  const { version = '1.29', requests = 300, perRequest = 100 } = options;
  const latencies: number[] = [];
  for (let i = 0; i < requests; i++) {
    const body = JSON.stringify({ yaml: buildManifest(docs, perRequest, i * 7), version });
    const start = process.hrtime.bigint();
    const response = await fetch(new URL('/api/v2/k8s/validate', baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`HTTP ${response.status} from the validate route`);
    latencies.push(elapsedMs(start));
  }
  return summarize(latencies.slice(Math.min(20, requests / 10)), perRequest);
}
