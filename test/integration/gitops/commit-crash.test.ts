import { exited, killIfRunning, spawnScript } from '../../helpers/child-process';
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import type { ChildProcess } from 'node:child_process';
import { deploymentEnv, startApiProcess, stopPlatformProcess } from '../../helpers/platform-process';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { findCommitByKey, readBranch } from '../../../src/git/commit-writer';
import { gitText } from '../../../src/git/git-plumbing';
import type { Tx } from '../../../src/db/knex';
import { findUnauditedCommits } from '../../../src/gitops/unaudited-commits';
import { makeProject } from './gitops-harness';
import { holdRepositoryLock, waitingBackend } from '../../helpers/repository-lock';

let platform: TestPlatform;
let token: string;
let projectId: string;
let repo: string;
let tenantId: string;
let orgId: string;

beforeAll(async () => {
  // The commit workflow's path: this API hands every write to it (GIT_DIRECT_COMMIT off), and the workers here die.
  platform = await startTestPlatform({ worker: false, env: { GIT_DIRECT_COMMIT: 'false' } });
  const { org, members } = await makeOrg(platform, ['owner']);
  orgId = org.id;
  token = members.owner!.token;
  tenantId = (await makeProject(platform, token, 'crash', ['acme'])).acme!;
  const project = (await platform.services
    .db('projects')
    .where({ organization_id: org.id, slug: 'crash' })
    .first('id')) as { id: string };
  projectId = project.id;
  repo = platform.services.repositories.pathOf(org.id, project.id);
}, 120_000);
afterAll(() => platform.close());

/** A worker process of its own, to kill. */
function spawnWorker() {
  return spawnScript('scripts/serve.ts', ['worker'], deploymentEnv(platform));
}

type Answer = Awaited<ReturnType<typeof write>>;

function write(key: string, url = platform.url) {
  return httpClient(url).put<{ commit: string; created: boolean }>('/api/v2/projects/crash/files/content', {
    token,
    body: { path: `notes/${key}.md`, content: 'survives\n', message: 'Across a crash' },
    headers: { 'Idempotency-Key': key },
  });
}

/** After the takeover: one commit of the key on the branch, the one the write returned, named by its audit entry. */
/** Kills `victim` once one of its statements waits on a lock `held` has (`where`: a pg_locks condition); its pid. */
async function killOnceWaiting(held: Tx, where: string, victim: ChildProcess, what: string): Promise<number> {
  const backend = await eventually(() => waitingBackend(held, where), 60_000, what);
  victim.kill('SIGKILL');
  expect(await exited(victim)).toBe('SIGKILL');
  return backend;
}

async function expectOneAuditedCommit(key: string, sha: string) {
  const log = await gitText(repo, ['log', '--format=%H', `--grep=^Idempotency-Key: ${key}$`, 'main']);
  expect(log.trim().split('\n')).toEqual([sha]);
  expect(await readBranch(repo)).toBe(sha);
  const entries = (await platform.services
    .db('audit_log')
    .where({ workflow_id: `git-commit-${projectId}-${key}` })
    .select('action', 'git_commit_sha')) as { action: string; git_commit_sha: string }[];
  expect(entries).toEqual([{ action: 'git.files.commit', git_commit_sha: sha }]);
  expect(await findUnauditedCommits(platform.services.db, platform.services.repositories)).toEqual([]);
}

/**
 * Who commits a write, and so who dies mid-commit: the commit workflow's activity on a worker process (this test's API
 * hands every write to it) or an API process that commits the write itself (GIT_DIRECT_COMMIT, issue 46).
 */
interface CommitterPath {
  name: string;
  /** Starts the process that will commit `key`, and sends the write. */
  start(key: string): Promise<{ victim: ChildProcess; answer: Promise<Answer | string> }>;
  /** After the victim died: the write's answer, from whoever takes over. */
  takeOver(key: string, answer: Promise<Answer | string>): Promise<Answer>;
}

const workflowPath: CommitterPath = {
  name: 'the commit activity across a worker crash',
  async start(key) {
    // A failed request becomes its message, answered after the takeover (and never an unhandled rejection).
    return { victim: spawnWorker(), answer: write(key).catch((err: Error) => `no answer: ${err.message}`) };
  },
  async takeOver(key, answer) {
    // Another worker takes over: Temporal retries the activity once the dead one stops heartbeating.
    await platform.startWorker();
    try {
      const res = await answer;
      if (typeof res === 'string') throw new Error(res);
      const history = await platform.services.temporal.workflow
        .getHandle(`git-commit-${projectId}-${key}`)
        .fetchHistory();
      const attempts = (history.events ?? [])
        .map((e) => e.activityTaskStartedEventAttributes?.attempt)
        .filter((a): a is number => typeof a === 'number');
      expect(attempts.length).toBe(1);
      expect(attempts[0]).toBeGreaterThanOrEqual(2);
      return res;
    } finally {
      await platform.stopWorker();
    }
  },
};

const directPath: CommitterPath = {
  name: "a direct commit across its API process's crash",
  async start(key) {
    const api = await startApiProcess(platform, { GIT_DIRECT_COMMIT: 'true' });
    // The dying process never answers: its client sees the connection end (fetch's own error, from Node's realm).
    return { victim: api.child, answer: write(key, api.url).catch((err: Error) => `no answer: ${err.message}`) };
  },
  async takeOver(key, answer) {
    expect(await answer).toBe('no answer: fetch failed');
    // The client retries with the same Idempotency-Key, through another API process that commits directly too.
    const api = await startApiProcess(platform, { GIT_DIRECT_COMMIT: 'true' });
    try {
      return await write(key, api.url);
    } finally {
      await stopPlatformProcess(api, 'SIGTERM');
    }
  },
};

describe.each([workflowPath, directPath])('$name', (path) => {
  const key = (n: number) => `crash-${path === directPath ? 'direct-' : ''}${n}`;

  it('ends with exactly one commit, whose SHA the write returns, when the committer dies at its audit entry', async () => {
    const tip = await readBranch(repo);
    // Hold inserts into the audit table: the commit path builds the Git commit, then stops at its audit entry with its
    // transaction (and the repository lock) open, the branch not moved yet. That is where its process is killed.
    const held = await platform.services.db.transaction();
    await held.raw('LOCK TABLE audit_log IN EXCLUSIVE MODE');
    let victim: ChildProcess | undefined;
    try {
      const started = await path.start(key(1));
      victim = started.victim;
      await killOnceWaiting(held, "relation = 'audit_log'::regclass", victim, 'the commit waiting at its audit entry');
      expect(await readBranch(repo)).toBe(tip);
      await held.rollback();

      const res = await path.takeOver(key(1), started.answer);
      expect([res.status, res.text.slice(0, 200)]).toEqual([200, expect.any(String)]);
      await expectOneAuditedCommit(key(1), res.body.commit);
    } finally {
      // A failure above must not leave the audit table locked for the file's other tests (under load it once did, and
      // every later test of the file failed behind it). The victim dies first: released, it would commit.
      await killIfRunning(victim);
      if (!held.isCompleted()) await held.rollback();
    }
  }, 150_000);

  it('takes the commit off the branch when the committer dies between moving the branch and the database commit', async () => {
    // A deferred trigger stops the database COMMIT itself on a lock this test holds: the branch has moved and the
    // audit entry is written but not committed. Then the committing process dies and its database session with it.
    const db = platform.services.db;
    await db.raw(`CREATE FUNCTION test_hold_commit() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN PERFORM pg_advisory_xact_lock(4242); RETURN NULL; END $$`);
    await db.raw(`CREATE CONSTRAINT TRIGGER test_hold_commit AFTER INSERT ON audit_log
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.workflow_id = 'git-commit-${projectId}-${key(2)}')
      EXECUTE FUNCTION test_hold_commit()`);
    const held = await db.transaction();
    await held.raw('SELECT pg_advisory_xact_lock(4242)');
    let victim: ChildProcess | undefined;
    try {
      const started = await path.start(key(2));
      victim = started.victim;
      const orphan = await eventually(() => findCommitByKey(repo, key(2)), 60_000, 'the branch moved');
      const backend = await killOnceWaiting(
        held,
        "locktype = 'advisory' AND objid = 4242",
        victim,
        'the database commit held',
      );
      await held.raw('SELECT pg_terminate_backend(?)', [backend]);
      await held.rollback();
      expect(await readBranch(repo)).toBe(orphan);

      const res = await path.takeOver(key(2), started.answer);
      expect([res.status, res.text.slice(0, 200)]).toEqual([200, expect.any(String)]);
      expect(res.body.commit).not.toBe(orphan);
      expect(await gitText(repo, ['rev-list', 'main'])).not.toContain(orphan);
      await expectOneAuditedCommit(key(2), res.body.commit);
    } finally {
      await killIfRunning(victim);
      if (!held.isCompleted()) await held.rollback();
      await db.raw('DROP TRIGGER test_hold_commit ON audit_log');
      await db.raw('DROP FUNCTION test_hold_commit()');
    }
  }, 150_000);
});

describe('a release whose local commit dies with its worker', () => {
  it("commits once, under the release's key, when the workflow task that ran the commit is retried elsewhere", async () => {
    // The release runs validation, its turn and the commit as local activities in one workflow task. Hold the
    // repository's lock: the commit waits for it inside that task, and the worker dies there.
    await platform.stopWorker();
    const tip = await readBranch(repo);
    const held = await holdRepositoryLock(platform.services.db, repo);
    const worker = spawnWorker();
    try {
      const created = await httpClient(platform.url).post<{ id: string }>('/api/v2/projects/crash/releases', {
        token,
        body: { tenantId, environment: 'dev', title: 'across a crash', changes: [{ workload: 'web', tag: '9.9.9' }] },
      });
      expect(created.status).toBe(201);
      const waiting = await eventually(
        () => waitingBackend(held, "locktype = 'advisory'"),
        60_000,
        'the local commit waiting for the repository',
      );
      const { rows } = (await held.raw('SELECT query FROM pg_stat_activity WHERE pid = ?', [waiting])) as {
        rows: { query: string }[];
      };
      expect(rows[0]?.query).toContain('pg_advisory_xact_lock(hashtextextended(');
      worker.kill('SIGKILL');
      expect(await exited(worker)).toBe('SIGKILL');
      await held.rollback();
      expect(await readBranch(repo)).toBe(tip);

      // Another worker takes the workflow task once the dead one's times out, and runs the steps again.
      await platform.startWorker();
      const release = await eventually(
        async () => {
          const res = await httpClient(platform.url).get<{ commitSha: string | null; status: string }>(
            `/api/v2/releases/${created.body.id}`,
            { token },
          );
          return res.body.commitSha ? res.body : null;
        },
        90_000,
        'the release committed',
      );
      expect(release.status).toBe('Syncing');
      const log = await gitText(repo, ['log', '--format=%H', `--grep=^Release-Id: ${created.body.id}$`, 'main']);
      expect(log.trim().split('\n')).toEqual([release.commitSha]);
      const deploys = await platform.services
        .db('audit_log')
        .where({ action: 'release.deploy', resource_id: created.body.id })
        .select('git_commit_sha');
      expect(deploys).toEqual([{ git_commit_sha: release.commitSha }]);
      expect(await findUnauditedCommits(platform.services.db, platform.services.repositories)).toEqual([]);
    } finally {
      await killIfRunning(worker);
      if (!held.isCompleted()) await held.rollback();
      await platform.stopWorker();
    }
  }, 180_000);
});

describe('a generate whose API process dies while its commit waits for its rows', () => {
  it('commits once when retried with its key, nothing of the first attempt on the branch or in the records', async () => {
    // 12 tenants x 2 environments: over the size whose tree is hashed here while `git fast-import` writes it.
    await makeProject(
      platform,
      token,
      'fleet',
      Array.from({ length: 12 }, (_, i) => `fleet-${i}`),
    );
    const db = platform.services.db;
    const fleet = (await db('projects').where({ organization_id: orgId, slug: 'fleet' }).first('id')) as { id: string };
    const fleetRepo = platform.services.repositories.pathOf(orgId, fleet.id);
    const key = 'generate-crash';
    const generate = (url: string) =>
      httpClient(url).post<{ commit: string; created: boolean }>('/api/v2/projects/fleet/delivery/generate', {
        token,
        body: {},
        headers: { 'Idempotency-Key': key },
      });
    // Hold inserts into the deployed-state history: the commit path built the commit and sent its rows, and waits for
    // them (its gate opened or not) with its transaction and the repository lock open, the branch not moved.
    const held = await db.transaction();
    await held.raw('LOCK TABLE deployed_target_events IN EXCLUSIVE MODE');
    let victim: ChildProcess | undefined;
    try {
      const api = await startApiProcess(platform, { GIT_DIRECT_COMMIT: 'true' });
      victim = api.child;
      const answer = generate(api.url).catch((err: Error) => `no answer: ${err.message}`);
      await killOnceWaiting(
        held,
        "relation = 'deployed_target_events'::regclass",
        victim,
        "the generate's rows waiting",
      );
      expect(await answer).toBe('no answer: fetch failed');
      expect(await readBranch(fleetRepo)).toBeNull();
      await held.rollback();

      const again = await startApiProcess(platform, { GIT_DIRECT_COMMIT: 'true' });
      try {
        const res = await generate(again.url);
        expect([res.status, res.body.created]).toEqual([200, true]);
        const log = await gitText(fleetRepo, ['log', '--format=%H', `--grep=^Idempotency-Key: ${key}$`, 'main']);
        expect(log.trim().split('\n')).toEqual([res.body.commit]);
        const entries = await db('audit_log')
          .where({ workflow_id: `git-commit-${fleet.id}-${key}` })
          .select('action', 'git_commit_sha');
        expect(entries).toEqual([{ action: 'delivery.generate', git_commit_sha: res.body.commit }]);
        const targets = await db('deployed_targets').where({ project_id: fleet.id }).select('desired_revision');
        expect(targets.map((t: { desired_revision: string }) => t.desired_revision)).toEqual(
          Array(24).fill(res.body.commit),
        );
        expect(await findUnauditedCommits(db, platform.services.repositories)).toEqual([]);
      } finally {
        await stopPlatformProcess(again, 'SIGTERM');
      }
    } finally {
      await killIfRunning(victim);
      if (!held.isCompleted()) await held.rollback();
    }
  }, 150_000);
});
