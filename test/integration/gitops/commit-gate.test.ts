/**
 * A write's gate (issue 46, src/gitops/commit-operation.ts CommitGate): a generate hands its commit to the commit path
 * before it validates, and the commit waits for the validation's verdict before it lands. Opened, the verdict's
 * details join the write's audit entry; closed, nothing of the write stays. A write handed to the commit workflow
 * waits for its gate first.
 */
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { commitPathDepsOf, runCommit, type CommitGate, type CommitRequest } from '../../../src/gitops/commit-path';
import { createCommitClient } from '../../../src/gitops/commit-client';
import { COMMIT_FAILURE } from '../../../src/gitops/commit-failure';
import { commitOperationKinds } from '../../../src/runtime/commit-operations';
import { readBranch } from '../../../src/git/commit-writer';
import { findUnauditedCommits } from '../../../src/gitops/unaudited-commits';
import { findProjectBySlug, type Project } from '../../../src/projects/project-repository';
import type { OrgCaller } from '../../../src/iam/caller';
import { makeProject } from './gitops-harness';

let platform: TestPlatform;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;
let project: Project;
let repo: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  org = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  await makeProject(platform, owner, 'gated', ['acme']);
  project = (await findProjectBySlug(platform.services.db, org.org.id, 'gated'))!;
  repo = platform.services.repositories.pathOf(org.org.id, project.id);
}, 120_000);
afterAll(() => platform.close());

const files = (key: string) => ({
  type: 'files' as const,
  writes: [{ path: `notes/${key}.md`, content: `${key}\n` }],
  deletes: [],
});

function request(key: string): CommitRequest {
  const member = org.members.owner!;
  return {
    organizationId: org.org.id,
    projectId: project.id,
    idempotencyKey: key,
    workflowId: `test-gate-${key}`,
    message: key,
    actor: { userId: member.user.id, actorType: 'user', actor: 'owner', email: null, requestId: null },
    operation: files(key),
  };
}

it("waits for a write's gate with its rows already sent: opened, its details join the audit entry; closed, nothing stays", async () => {
  const db = platform.services.db;
  const deps = commitPathDepsOf(platform.services, commitOperationKinds());
  const before = await readBranch(repo);
  const sent: string[] = [];
  const watch = (query: { sql: string }) => sent.push(query.sql);
  db.on('query', watch);
  try {
    let open: (details: Record<string, unknown> | null) => void = () => undefined;
    const gate: CommitGate = new Promise((resolve) => (open = resolve));
    const landing = runCommit(deps, request('opened'), gate);
    // The write was prepared up to its rows, which went to PostgreSQL: its place in the commit order is in a statement
    // sent while the gate is shut; the branch has not moved.
    const rows = async () => sent.some((sql) => sql.includes('INSERT INTO deployment_revisions'));
    await eventually(rows, 10_000, "the write's rows");
    expect(await readBranch(repo)).toBe(before);
    open({ checked: { files: 1 } });
    const landed = await landing;
    expect(landed.created).toBe(true);
    expect(await readBranch(repo)).toBe(landed.sha);
    const entry = (await db('audit_log').where({ id: landed.auditIds[0] }).first('details')) as {
      details: Record<string, unknown>;
    };
    expect(entry.details).toMatchObject({ checked: { files: 1 }, commitKey: 'opened' });
  } finally {
    db.off('query', watch);
  }

  const tip = await readBranch(repo);
  const refused = runCommit(deps, request('closed'), Promise.resolve(null));
  await expect(refused).rejects.toMatchObject({ type: COMMIT_FAILURE.withdrawn });
  expect(await readBranch(repo)).toBe(tip);
  expect(await db('audit_log').where({ workflow_id: 'test-gate-closed' })).toEqual([]);
  expect(await db('git_commits').where({ idempotency_key: 'closed' })).toEqual([]);
  expect(await findUnauditedCommits(db, platform.services.repositories)).toEqual([]);
});

it('hands a gated write to the commit workflow once the gate opened, with its details; a closed gate starts none', async () => {
  const member = org.members.owner!;
  const caller: OrgCaller = {
    principal: {
      kind: 'user',
      actorType: 'user',
      actor: member.user.email,
      userId: member.user.id,
      email: member.user.email,
      organizationId: org.org.id,
      role: 'owner',
      credentialId: 'test',
      isInstanceAdmin: false,
    },
    requestId: null,
    organizationId: org.org.id,
    role: 'owner',
  };
  // No direct commit: every write goes to the commit workflow.
  const client = createCommitClient({
    workflows: platform.services.workflows,
    taskQueuePrefix: platform.config.temporal.taskQueuePrefix,
    direct: null,
  });
  const db = platform.services.db;
  const opened = await client(caller, project, {
    message: 'Gated',
    idempotencyKey: 'workflow-opened',
    operation: files('workflow-opened'),
    gate: Promise.resolve({ checked: { files: 1 } }),
  });
  expect(opened.created).toBe(true);
  const entry = (await db('audit_log').where({ id: opened.auditIds[0] }).first('details', 'workflow_id')) as {
    details: Record<string, unknown>;
    workflow_id: string;
  };
  expect(entry).toMatchObject({
    details: { checked: { files: 1 } },
    workflow_id: `git-commit-${project.id}-workflow-opened`,
  });

  const closed = client(caller, project, {
    message: 'Withdrawn',
    idempotencyKey: 'workflow-closed',
    operation: files('workflow-closed'),
    gate: Promise.resolve(null),
  });
  await expect(closed).rejects.toMatchObject({ type: COMMIT_FAILURE.withdrawn });
  const started = await platform.services.temporal.workflow
    .getHandle(`git-commit-${project.id}-workflow-closed`)
    .describe()
    .then(
      () => 'started',
      (err: Error) => err.name,
    );
  expect(started).toBe('WorkflowNotFoundError');
});

it("blocks a generate's schema error under block, leaving nothing of its prepared commit, and commits under warn", async () => {
  const http = httpClient(platform.url);
  await makeProject(platform, owner, 'broken', ['acme'], {
    probes: { liveness: { httpGet: { path: 5, port: 8080 } } },
  });
  const blocked = await http.post<{ validation: { summary: { errors: number } }; commit: null }>(
    '/api/v2/projects/broken/delivery/generate',
    { token: owner, body: {} },
  );
  expect(blocked.status).toBe(422);
  expect(blocked.body.validation.summary.errors).toBeGreaterThan(0);
  const db = platform.services.db;
  const broken = (await findProjectBySlug(db, org.org.id, 'broken'))!;
  const count = async (table: string, where: Record<string, string>) =>
    Number(
      (
        (await db(table)
          .where({ project_id: broken.id, ...where })
          .count('* as n')) as { n: string }[]
      )[0]!.n,
    );
  const rows = async () => ({
    generates: await count('audit_log', { action: 'delivery.generate' }),
    commits: await count('git_commits', {}),
    revisions: await count('deployment_revisions', {}),
    targets: await count('deployed_targets', {}),
  });
  expect(await rows()).toEqual({ generates: 0, commits: 0, revisions: 0, targets: 0 });
  expect(await readBranch(platform.services.repositories.pathOf(org.org.id, broken.id))).toBeNull();
  const listed = await http.get<{ items: unknown[] }>('/api/v2/projects/broken/commits', { token: owner });
  expect(listed.body.items).toHaveLength(0);

  const policy = await http.patch('/api/v2/projects/broken/policy', {
    token: owner,
    body: { validation: { errors: 'warn' } },
  });
  expect(policy.body).toEqual({
    validation: { errors: 'warn', deprecations: 'warn' },
    releases: { autoDeploy: true },
  });
  const warned = await http.post<{ commit: string; validation: { summary: Record<string, number> } }>(
    '/api/v2/projects/broken/delivery/generate',
    { token: owner, body: {} },
  );
  expect(warned.status).toBe(200);
  expect(warned.body.commit).toMatch(/^[0-9a-f]{40}$/);
  expect(warned.body.validation.summary.errors).toBeGreaterThan(0);
  const entry = (await db('audit_log').where({ git_commit_sha: warned.body.commit }).first('action', 'details')) as {
    action: string;
    details: { validation: unknown; changes: unknown };
  };
  expect(entry.action).toBe('delivery.generate');
  expect(entry.details.validation).toEqual({ ...warned.body.validation.summary, blocked: false });
  expect(entry.details.changes).toEqual(expect.objectContaining({ added: expect.any(Number) }));
  expect(await rows()).toMatchObject({ generates: 1, commits: 1, revisions: 1 });
});
