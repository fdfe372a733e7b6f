import type { apiCaller } from '../api-call';
import { elapsedMs } from '../validate/stats';

export interface Release {
  id: string;
  workflowId: string;
  tenant: string;
  environment: string;
  status: string;
  commitSha: string | null;
  createdAt: string;
  committedAt: string | null;
}

export interface Target {
  tenantId: string;
  environment: string;
}

/**
 * Releases as a client drives them: `release` creates one on a target and polls it every `pollMs` until its commit
 * (answering the client's milliseconds to seeing it, from the create call's send to the row's `committed_at` on the
 * same clock, and the row's own), `healthy` reports the release's Application Synced and Healthy at its commit
 * through the controller webhook, so the target's next release does not wait its turn. Tags are 1.0.N, N counting
 * from `after` + 1 (a client that follows another on the same targets starts where it stopped).
 */
export async function releaseClient(baseUrl: string, call: ReturnType<typeof apiCaller>, after = 0, pollMs = 10) {
  const { token: controllerToken } = await call<{ token: string }>('POST', '/api/v2/org/cdcontroller-token');
  let version = after;
  let reportedAt = 0;
  return {
    async release(project: string, workload: string, target: Target) {
      version += 1;
      const start = process.hrtime.bigint();
      const sentAt = Date.now();
      const created = await call<Release>('POST', `/api/v2/projects/${project}/releases`, {
        ...target,
        title: `bench ${version}`,
        changes: [{ workload, tag: `1.0.${version}` }],
      });
      for (;;) {
        const r = await call<Release>('GET', `/api/v2/releases/${created.id}`);
        if (r.commitSha && r.committedAt) {
          const committedAt = Date.parse(r.committedAt);
          const serverMs = committedAt - Date.parse(r.createdAt);
          return { clientMs: elapsedMs(start), commitMs: committedAt - sentAt, serverMs, r };
        }
        if (['Blocked', 'Failed', 'Cancelled'].includes(r.status)) throw new Error(`release ${r.id} ended ${r.status}`);
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    },
    async healthy(project: string, workload: string, r: Release) {
      reportedAt = Math.max(Date.now(), reportedAt + 1);
      const res = await fetch(new URL('/api/v1/webhooks/cdcontroller', baseUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${controllerToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          app: {
            metadata: { name: `${project}.${r.tenant}.${r.environment}.${workload}`, namespace: 'argocd' },
            status: { sync: { status: 'Synced', revision: r.commitSha }, health: { status: 'Healthy' } },
          },
          timestamp: new Date(reportedAt).toISOString(),
        }),
      });
      if (res.status !== 200) throw new Error(`controller webhook: ${res.status} ${await res.text()}`);
    },
  };
}
