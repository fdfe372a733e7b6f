import { randomUUID } from 'node:crypto';
import { coveringSession, insertSession } from '../../../src/break-glass/break-glass-repository';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { makeProject } from '../gitops/gitops-harness';

/**
 * Issue 46: an image update asks the gate about each tenant-and-environment pair. `checkEach` answers them all as
 * `check` answers each, with the project's freezes, stop-the-line switch and the actor's break-glass sessions read in
 * one statement rather than once a pair.
 */
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
}, 120_000);
afterAll(() => platform.close());

it('gives every pair the verdict check gives it, reading the freezes once', async () => {
  const { org, members } = await makeOrg(platform, ['owner']);
  const token = members.owner!.token;
  await makeProject(platform, token, 'each', ['acme', 'beta']);
  const s = platform.services;
  const { id: projectId } = (await s.db('projects').where({ organization_id: org.id, slug: 'each' }).first('id')) as {
    id: string;
  };
  const now = Date.now();
  const freeze = await httpClient(platform.url).post('/api/v2/projects/each/freezes', {
    token,
    body: {
      name: 'Acme dev',
      reason: 'audit week',
      startsAt: new Date(now - 60_000).toISOString(),
      endsAt: new Date(now + 3_600_000).toISOString(),
      environments: ['dev'],
      tenants: ['acme'],
    },
  });
  expect(freeze.status).toBe(201);
  const project = { organizationId: org.id, projectId };
  const pairs = [
    { environment: 'dev', tenants: ['acme'] },
    { environment: 'dev', tenants: ['beta'] },
    { environment: 'prod', tenants: ['acme'] },
    { environment: 'dev', tenants: [] },
  ];

  const queries: string[] = [];
  const count = (q: { sql: string }) => queries.push(q.sql);
  s.db.on('query', count);
  const verdicts = await s.governance.checkEach(s.db, project, pairs, 'images.update', null);
  s.db.off('query', count);

  expect(verdicts.map((v) => v.blocked)).toEqual([true, false, false, true]);
  expect(verdicts[0]!.freezes.map((f) => f.name)).toEqual(['Acme dev']);
  for (const [i, pair] of pairs.entries()) {
    expect(verdicts[i]).toEqual(await s.governance.check(s.db, { ...project, ...pair }, 'images.update', null));
  }
  // The stop-the-line switch, the freeze windows and the actor's sessions: one statement for the four pairs.
  expect(queries).toHaveLength(1);

  // An actor's break-glass session scoped to prod covers the prod pair only, found by the same one statement.
  const userId = members.owner!.user.id;
  const opened = new Date(now - 30_000);
  await insertSession(s.db, {
    id: randomUUID(),
    organizationId: org.id,
    userId,
    actor: `user:${members.owner!.user.email}`,
    justification: 'hotfix',
    durationMinutes: 60,
    scope: { projectIds: [projectId], environments: ['prod'] },
    workflowId: `break-glass-${randomUUID()}`,
    openedAt: opened.toISOString(),
    endsAt: new Date(now + 3_600_000).toISOString(),
  });
  queries.length = 0;
  s.db.on('query', count);
  const asActor = await s.governance.checkEach(s.db, project, pairs, 'images.update', userId);
  s.db.off('query', count);
  expect(queries).toHaveLength(1);
  expect(asActor.map((v) => v.breakGlass?.justification ?? null)).toEqual([null, null, 'hotfix', null]);
  for (const [i, pair] of pairs.entries()) {
    expect(asActor[i]).toEqual(await s.governance.check(s.db, { ...project, ...pair }, 'images.update', userId));
    const alone = await coveringSession(s.db, { ...project, userId, environment: pair.environment }, new Date());
    expect(alone?.justification ?? null).toBe(asActor[i]!.breakGlass?.justification ?? null);
  }

  // The organization's switch freezes every pair, named first.
  const line = await httpClient(platform.url).put('/api/v2/freezes/stop-the-line', {
    token,
    body: { enabled: true, reason: 'incident' },
  });
  expect(line.status).toBe(200);
  const stopped = await s.governance.checkEach(s.db, project, pairs, 'images.update', null);
  expect(stopped.map((v) => [v.blocked, v.freezes[0]?.stopTheLine])).toEqual(pairs.map(() => [true, true]));
  await expect(s.governance.checkEach(s.db, project, [], 'images.update', null)).resolves.toEqual([]);
});
