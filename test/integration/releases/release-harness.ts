import { httpClient } from '../../helpers/http-client';
import { controllerClient } from '../webhooks/controller-client';
import { eventually } from '../../helpers/net';
import type { TestPlatform } from '../../helpers/test-platform';

export interface ReleaseBody {
  id: string;
  status: string;
  statusReason: string | null;
  waitingBehind: string | null;
  commitSha: string | null;
  project: string;
  projectId: string;
  tenant: string;
  tenantId: string;
  environment: string;
  workflowId: string;
  createdAt: string;
  validation: { summary: { errors: number; warnings: number; deprecations: number }; results: unknown[] } | null;
  policies: unknown;
  approvals: {
    received: number;
    decisions: { actor: string; decision: string }[];
    bypassedBy?: { sessionId: string; justification: string; actor?: string } | null;
  };
  breakGlass?: { sessionId: string; justification: string; actor?: string } | null;
  sync: { status: string | null; health: string | null; service?: string | null; reportedAt?: string | null };
  waitingFor?: { service: string; syncStatus: string | null; healthStatus: string | null; revision: string | null }[];
  links: { workflow: string | null; history: string };
}

/** HTTP helpers of the release tests: create, read, wait for a status, report a sync. */
export function releaseClient(platform: TestPlatform) {
  const http = httpClient(platform.url);
  const controller = controllerClient(platform.url);
  const api = {
    http,
    /** The controller webhook client (one per harness: each token it makes replaces the organization's previous one). */
    controller,
    async create(token: string, project: string, body: Record<string, unknown>, key?: string) {
      return http.post<ReleaseBody>(`/api/v2/projects/${project}/releases`, {
        token,
        body,
        headers: key ? { 'Idempotency-Key': key } : undefined,
      });
    },
    /** An approval policy of `project`: one approval by a member for changes to `environment` (`<env> needs one`). */
    oneApprovalIn(token: string, project: string, environment: string) {
      return http.post('/api/v2/approval-policies', {
        token,
        body: {
          project,
          name: `${environment} needs one`,
          environments: [environment],
          requiredApprovals: 1,
          eligibleApprovers: { roles: ['member'] },
        },
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
    /**
     * The controller reports every service of the release's target at `revision` through the controller webhook
     * (with the organization's controller token, made with `adminToken`); answers the last report and the release.
     */
    async reportSync(
      adminToken: string,
      id: string,
      revision: string,
      healthStatus = 'Healthy',
      syncStatus = 'Synced',
    ) {
      const release = await api.get(adminToken, id);
      const workloads = await http.get<{ items: { name: string }[] }>(`/api/v2/projects/${release.project}/workloads`, {
        token: adminToken,
      });
      const token = await controller.tokenFor(adminToken);
      let last = { status: 0, text: '' };
      for (const { name } of workloads.body.items) {
        const app = `${release.project}.${release.tenant}.${release.environment}.${name}`;
        last = await controller.post(token, controller.event(app, revision, healthStatus, syncStatus));
        if (last.status !== 200) break;
      }
      return { status: last.status, text: last.text, body: await api.get(adminToken, id) };
    },
  };
  return api;
}
