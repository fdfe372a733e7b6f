import { expect } from '@jest/globals';
import { eventually } from '../../helpers/net';
import type { promotionClient } from '../promotions/promotion-harness';

export interface Rollout {
  id: string;
  status: string;
  statusReason: string | null;
  waves: { name: string; tenants: string[]; state: string; promotionIds: string[] }[];
}

/** Reading a rollout until it reaches a state, deploying its waves through the controller webhook, its audit chain. */
export function rolloutSteps(api: ReturnType<typeof promotionClient>, owner: string) {
  const get = async (id: string) => (await api.http.get<Rollout>(`/api/v2/rollouts/${id}`, { token: owner })).body;
  const until = (id: string, done: (r: Rollout) => boolean, what: string) =>
    eventually(
      async () => {
        const r = await get(id);
        if (!done(r)) throw new Error(`${what}: rollout is ${JSON.stringify(r)}`);
        return r;
      },
      60_000,
      what,
    );
  return {
    get,
    until,
    /** Sets prod's rollout plan of the project to `waves` (200 expected). */
    async putProdPlan(slug: string, waves: Record<string, unknown>[]) {
      const plan = await api.http.put(`/api/v2/projects/${slug}/environments/prod/rollout-plan`, {
        token: owner,
        body: { waves },
      });
      expect([plan.status, plan.text]).toEqual([200, expect.any(String)]);
    },
    /** Starts a rollout of dev's versions to prod over `plan` (an explicit plan in the request). */
    start: (slug: string, plan: Record<string, unknown>) =>
      api.http.post<Rollout>(`/api/v2/projects/${slug}/rollouts`, {
        token: owner,
        body: { sourceEnvironment: 'dev', targetEnvironment: 'prod', plan },
      }),
    /** Waits for wave `i`'s promotion to commit, then the controller reports its tenants `health`; answers the SHA. */
    async deployWave(slug: string, id: string, i: number, health = 'Healthy') {
      const rollout = await until(id, (r) => r.waves[i]!.promotionIds.length > 0, `wave ${i + 1} promotion`);
      const promotionId = rollout.waves[i]!.promotionIds.at(-1)!;
      const syncing = await api.status(owner, promotionId, 'Syncing', 60_000);
      const token = await api.controller.tokenFor(owner);
      for (const tenant of rollout.waves[i]!.tenants) {
        const app = `${slug}.${tenant}.prod.web`;
        const res = await api.controller.post(token, api.controller.event(app, syncing.commitSha!, health, 'Synced'));
        expect(res.status).toBe(200);
      }
      return syncing.commitSha!;
    },
    /** The rollout's audit entries, oldest first. */
    async auditOf(id: string) {
      const res = await api.http.get<{ items: { action: string; createdAt: string; gitCommitSha: string | null }[] }>(
        `/api/v2/audit-logs?resourceId=${id}&limit=200`,
        { token: owner },
      );
      return res.body.items.reverse();
    },
  };
}
