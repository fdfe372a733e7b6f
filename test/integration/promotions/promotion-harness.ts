import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import type { TestPlatform } from '../../helpers/test-platform';
import { releaseClient } from '../releases/release-harness';

export interface PromotionBody {
  id: string;
  projectId: string;
  status: string;
  statusReason: string | null;
  causes: { cause: string; message: string }[];
  moves: { tenant: string; changes: { workload: string; tag: string }[] }[];
  versions: { tenant: string; workload: string; from: string | null; to: string; direction: string }[];
  downgrade: boolean;
  commitSha: string | null;
  sync: Record<string, { syncStatus: string; healthStatus: string }>;
  breakGlass: { sessionId: string; justification: string } | null;
  workflowId: string;
  links: { workflow: string | null; history: string };
}

/** HTTP helpers of the promotion tests: request, read, wait for a status; a Healthy dev release to promote from. */
export function promotionClient(platform: TestPlatform) {
  const http = httpClient(platform.url);
  const releases = releaseClient(platform);
  const api = {
    http,
    controller: releases.controller,
    /** An approval policy of the project's prod: one approval by a member of `role`. */
    async prodApprovalPolicy(token: string, project: string, name: string, role = 'admin') {
      const res = await http.post('/api/v2/approval-policies', {
        token,
        body: { project, name, environments: ['prod'], requiredApprovals: 1, eligibleApprovers: { roles: [role] } },
      });
      if (res.status !== 201) throw new Error(`approval policy: ${res.status} ${res.text}`);
    },
    async request(token: string, project: string, body: Record<string, unknown>) {
      return http.post<PromotionBody>(`/api/v2/projects/${project}/promotion/request`, { token, body });
    },
    async get(token: string, id: string) {
      return (await http.get<PromotionBody>(`/api/v2/promotions/${id}`, { token })).body;
    },
    async until(token: string, id: string, done: (p: PromotionBody) => boolean, timeoutMs = 20_000) {
      return eventually(
        async () => {
          const promotion = await api.get(token, id);
          if (!done(promotion))
            throw new Error(`promotion ${id} is ${promotion.status} (${promotion.statusReason ?? ''})`);
          return promotion;
        },
        timeoutMs,
        `promotion ${id}`,
      );
    },
    status(token: string, id: string, status: string, timeoutMs?: number) {
      return api.until(token, id, (p) => p.status === status, timeoutMs);
    },
    /** Releases `tag` of web to a tenant in dev and reports it Healthy (or `health`). */
    releaseToDev(token: string, project: string, tenantId: string, tag: string, health = 'Healthy') {
      return api.releaseTo(token, project, 'dev', tenantId, tag, health);
    },
    /** Releases `tag` of web to a tenant in `environment` and reports it Healthy (or `health`). */
    async releaseTo(
      token: string,
      project: string,
      environment: string,
      tenantId: string,
      tag: string,
      health = 'Healthy',
    ) {
      const created = await releases.create(token, project, {
        environment,
        tenantId,
        title: `web ${tag}`,
        changes: [{ workload: 'web', tag }],
      });
      if (created.status !== 201) throw new Error(`${created.status} ${JSON.stringify(created.body)}`);
      const syncing = await releases.status(token, created.body.id, 'Syncing');
      await releases.reportSync(token, created.body.id, syncing.commitSha!, health);
      return releases.until(token, created.body.id, (r) => r.status === 'Healthy' || r.status === 'Failed');
    },
  };
  return api;
}
