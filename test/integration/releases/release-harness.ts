import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import type { TestPlatform } from '../../helpers/test-platform';

export interface ReleaseBody {
  id: string;
  status: string;
  statusReason: string | null;
  waitingBehind: string | null;
  commitSha: string | null;
  projectId: string;
  tenantId: string;
  environment: string;
  workflowId: string;
  validation: { summary: { errors: number; warnings: number; deprecations: number }; results: unknown[] } | null;
  policies: unknown;
  approvals: { received: number; decisions: { actor: string; decision: string }[] };
  sync: { status: string | null; health: string | null };
  links: { workflow: string | null; history: string };
}

/** HTTP helpers of the release tests: create, read, wait for a status, report a sync. */
export function releaseClient(platform: TestPlatform) {
  const http = httpClient(platform.url);
  const api = {
    http,
    async create(token: string, project: string, body: Record<string, unknown>, key?: string) {
      return http.post<ReleaseBody>(`/api/v2/projects/${project}/releases`, {
        token,
        body,
        headers: key ? { 'Idempotency-Key': key } : undefined,
      });
    },
    async get(token: string, id: string) {
      return (await http.get<ReleaseBody>(`/api/v2/releases/${id}`, { token })).body;
    },
    /** Polls the release until `done` holds (a deadline, no sleeps). */
    async until(token: string, id: string, done: (r: ReleaseBody) => boolean, timeoutMs = 20_000) {
      return eventually(
        async () => {
          const release = await api.get(token, id);
          if (!done(release)) throw new Error(`release ${id} is ${release.status} (${release.statusReason ?? ''})`);
          return release;
        },
        timeoutMs,
        `release ${id}`,
      );
    },
    status(token: string, id: string, status: string, timeoutMs?: number) {
      return api.until(token, id, (r) => r.status === status, timeoutMs);
    },
    async reportSync(token: string, id: string, revision: string, healthStatus = 'Healthy', syncStatus = 'Synced') {
      return http.post<ReleaseBody>(`/api/v2/releases/${id}/sync-status`, {
        token,
        body: { revision, syncStatus, healthStatus },
      });
    },
  };
  return api;
}
