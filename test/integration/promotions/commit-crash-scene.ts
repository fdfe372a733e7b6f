import { exited, spawnScript } from '../../helpers/child-process';
import { makeOrg } from '../../helpers/fixtures';
import { deploymentEnv } from '../../helpers/platform-process';
import type { TestPlatform } from '../../helpers/test-platform';
import { gitText } from '../../../src/git/git-plumbing';
import { makeProject } from '../gitops/gitops-harness';
import { promotionClient } from './promotion-harness';

/**
 * Where the promotion crash tests kill a worker: project `slug` with `tenants`, those in `released` Healthy at 7.0.0
 * in dev; the platform's own worker stopped and a worker process started in its place, whose promotion commit stops
 * inside its transaction on the held workload row. `kill(promotionId)` kills that process once the promotion is
 * Executing, lets the row go and starts the platform's worker again; `expectOneCommit(promotionId)` waits for Syncing
 * and finds exactly one commit more than before, the promotion's.
 */
export async function commitCrashScene(platform: TestPlatform, slug: string, tenants: string[], released: string[]) {
  const { org, members } = await makeOrg(platform, ['owner']);
  const token = members.owner!.token;
  const api = promotionClient(platform);
  const ids = await makeProject(platform, token, slug, tenants);
  for (const tenant of released) await api.releaseToDev(token, slug, ids[tenant]!, '7.0.0');
  await platform.stopWorker();
  const db = platform.services.db;
  const project = (await db('projects').where({ organization_id: org.id, slug }).first('id')) as { id: string };
  const repo = platform.services.repositories.pathOf(org.id, project.id);
  const before = Number((await gitText(repo, ['rev-list', '--count', 'main'])).trim());
  const held = await db.transaction();
  await held('workloads').where({ project_id: project.id }).forUpdate().select('id');
  const worker = spawnScript('scripts/serve.ts', ['worker'], deploymentEnv(platform));
  return {
    token,
    api,
    db,
    async kill(promotionId: string) {
      await api.status(token, promotionId, 'Executing', 60_000);
      worker.kill('SIGKILL');
      expect(await exited(worker)).toBe('SIGKILL');
      await held.rollback();
      await platform.startWorker();
    },
    async expectOneCommit(promotionId: string) {
      const syncing = await api.status(token, promotionId, 'Syncing', 120_000);
      const keyed = await gitText(repo, [
        'log',
        '--format=%H',
        `--grep=^Idempotency-Key: promotion-${promotionId}-`,
        'main',
      ]);
      expect(keyed.trim().split('\n')).toEqual([syncing.commitSha]);
      expect(Number((await gitText(repo, ['rev-list', '--count', 'main'])).trim())).toBe(before + 1);
    },
  };
}
