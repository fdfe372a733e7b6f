import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { COMMIT_FAILURE } from '../../../src/gitops/commit-failure';
import { commitPathDepsOf, runCommit, type CommitRequest } from '../../../src/gitops/commit-path';
import { commitOperationKinds } from '../../../src/runtime/commit-operations';
import { resolveRef } from '../../../src/git/git-plumbing';
import { MAIN_BRANCH } from '../../../src/git/repository-store';
import { makeProject } from '../gitops/gitops-harness';

/** The one commit path refuses a bulk image update into a target frozen after the request was accepted. */
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
}, 120_000);
afterAll(() => platform.close());

it('refuses at commit time a bulk image update whose target a freeze now covers, and commits nothing', async () => {
  const { org, members } = await makeOrg(platform, ['owner']);
  const token = members.owner!.token;
  await makeProject(platform, token, 'late', ['acme']);
  const s = platform.services;
  const project = (await s.db('projects').where({ organization_id: org.id, slug: 'late' }).first('id')) as {
    id: string;
  };
  const now = Date.now();
  const frozen = await httpClient(platform.url).post('/api/v2/projects/late/freezes', {
    token,
    body: {
      name: 'Late',
      reason: 'started after the request',
      startsAt: new Date(now - 60_000).toISOString(),
      endsAt: new Date(now + 3_600_000).toISOString(),
      environments: ['dev'],
    },
  });
  expect(frozen.status).toBe(201);
  const request: CommitRequest = {
    organizationId: org.id,
    projectId: project.id,
    idempotencyKey: 'late-bulk-1',
    workflowId: 'test-late-bulk',
    message: 'bulk',
    actor: { userId: members.owner!.user.id, actorType: 'user', actor: 'owner', email: null, requestId: null },
    operation: {
      type: 'image',
      source: 'bulk',
      workload: 'web',
      tag: '9.0.0',
      pairs: [{ tenant: 'acme', environment: 'dev' }],
    },
  };
  const deps = commitPathDepsOf(s, commitOperationKinds());
  const repo = s.repositories.pathOf(org.id, project.id);
  const head = await resolveRef(repo, MAIN_BRANCH);
  await expect(runCommit(deps, request)).rejects.toMatchObject({
    type: COMMIT_FAILURE.frozen,
    message: 'dev is frozen by Late (started after the request)',
  });
  expect(await resolveRef(repo, MAIN_BRANCH)).toBe(head);
  const entries = await s.db('audit_log').where({ workflow_id: 'test-late-bulk' });
  expect(entries).toEqual([]);
});
