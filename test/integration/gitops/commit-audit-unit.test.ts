import { makeOrg } from '../../helpers/fixtures';
import { runScript } from '../../helpers/child-process';
import { startTestPlatform, testEnv, type TestPlatform } from '../../helpers/test-platform';
import fs from 'node:fs';
import {
  commitPathDepsOf,
  RepositoryMissing,
  runCommit,
  type CommitOperation,
  type CommitOutcome,
  type CommitPathDeps,
  type CommitRequest,
} from '../../../src/gitops/commit-path';
import type { OperationScope } from '../../../src/gitops/commit-operation';
import { commitOperationKinds } from '../../../src/runtime/commit-operations';
import { readBranch } from '../../../src/git/commit-writer';
import { gitText } from '../../../src/git/git-plumbing';
import { findUnauditedCommits } from '../../../src/gitops/unaudited-commits';
import { maintainRepositories } from '../../../src/gitops/repository-maintenance';
import { makeProject } from './gitops-harness';

/**
 * A commit and its audit entry are one unit (issue 25, docs/security.md AU-2, A-55): no commit stays on the branch
 * without its entry, whatever fails between the Git write and the database commit, and `verify-audit` finds any that
 * did.
 */
let platform: TestPlatform;
let deps: CommitPathDeps;
let repo: string;
let request: (key: string, message: string) => CommitRequest;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  const { org, members } = await makeOrg(platform, ['owner']);
  await makeProject(platform, members.owner!.token, 'unit', ['acme']);
  const s = platform.services;
  const project = (await s.db('projects').where({ organization_id: org.id, slug: 'unit' }).first('id')) as {
    id: string;
  };
  deps = commitPathDepsOf(s, commitOperationKinds());
  repo = s.repositories.pathOf(org.id, project.id);
  request = (key, message) => ({
    organizationId: org.id,
    projectId: project.id,
    idempotencyKey: key,
    workflowId: `test-unit-${key}`,
    message,
    actor: { userId: members.owner!.user.id, actorType: 'user', actor: 'owner', email: null, requestId: null },
    operation: { type: 'files', writes: [{ path: `notes/${key}.md`, content: `${key}\n` }], deletes: [] },
  });
}, 120_000);
afterAll(() => platform.close());

const unaudited = () => findUnauditedCommits(platform.services.db, platform.services.repositories);

/** The commit path with the files kind failing in JavaScript at `settle` (after its audit entry) for `fails` writes. */
function failingAtSettle(fails: (req: CommitRequest) => boolean): CommitPathDeps {
  const files = deps.operations.get('files')!;
  const settle = ({ req }: { req: CommitRequest }) =>
    fails(req) ? Promise.reject(new Error('injected failure at settle')) : Promise.resolve();
  return { ...deps, operations: new Map([...deps.operations, ['files', { ...files, settle }]]) };
}

/**
 * After a pass of four whose third write (`poison`) failed: the other three landed in their order after `tip`, and
 * the failed write left no audit entry, no commit record and no unaudited commit.
 */
async function expectOthersLanded(results: PromiseSettledResult<CommitOutcome>[], tip: string | null, poison: string) {
  const db = platform.services.db;
  const landed = results.filter((r) => r.status === 'fulfilled').map((r) => r.value);
  expect(landed.map((outcome) => outcome.created)).toEqual([true, true, true]);
  const log = await gitText(repo, ['log', '--format=%H', `${tip}..main`]);
  expect(log.trim().split('\n').reverse()).toEqual(landed.map((outcome) => outcome.sha));
  expect(await db('audit_log').where({ workflow_id: `test-unit-${poison}` })).toEqual([]);
  expect(await db('git_commits').where({ idempotency_key: poison })).toEqual([]);
  expect(await unaudited()).toEqual([]);
}

it('puts the branch back when the transaction fails after the branch moved (failure injected at the commit)', async () => {
  const db = platform.services.db;
  // A deferred constraint trigger fails the database COMMIT itself: after the commit path wrote its Git commit,
  // moved the branch and wrote its audit entry, at the last possible moment.
  await db.raw(`CREATE FUNCTION test_fail_at_commit() RETURNS trigger LANGUAGE plpgsql AS
    $$ BEGIN RAISE EXCEPTION 'injected failure at commit'; END $$`);
  await db.raw(`CREATE CONSTRAINT TRIGGER test_fail_at_commit AFTER INSERT ON audit_log
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.details->>'message' = 'refused at commit')
    EXECUTE FUNCTION test_fail_at_commit()`);
  try {
    const first = await runCommit(deps, request('unit-1', 'first'));
    expect(first.created).toBe(true);
    expect(await readBranch(repo)).toBe(first.sha);

    await expect(runCommit(deps, request('unit-2', 'refused at commit'))).rejects.toThrow('injected failure at commit');
    expect(await readBranch(repo)).toBe(first.sha);
    expect(await db('git_commits').where({ idempotency_key: 'unit-2' })).toEqual([]);
    expect(await unaudited()).toEqual([]);
  } finally {
    await db.raw('DROP TRIGGER test_fail_at_commit ON audit_log');
    await db.raw('DROP FUNCTION test_fail_at_commit()');
  }

  // The same write again, once nothing fails: one commit, on the branch, with its entry.
  const again = await runCommit(deps, request('unit-2', 'refused at commit'));
  expect(again.created).toBe(true);
  expect(await readBranch(repo)).toBe(again.sha);
  expect(await unaudited()).toEqual([]);
});

it('leaves nothing of a lone write that fails after its audit entry (a pass of one runs without a savepoint)', async () => {
  const db = platform.services.db;
  // The files kind, failing in JavaScript after the write's audit entry (no SQL error aborts the transaction for it).
  const failing = failingAtSettle(() => true);
  const before = await readBranch(repo);
  await expect(runCommit(failing, request('unit-lone', 'lone'))).rejects.toThrow('injected failure at settle');
  expect(await readBranch(repo)).toBe(before);
  expect(await db('audit_log').where({ workflow_id: 'test-unit-unit-lone' }).select('id')).toEqual([]);
  expect(await db('git_commits').where({ idempotency_key: 'unit-lone' })).toEqual([]);
  const again = await runCommit(deps, request('unit-lone', 'lone'));
  expect(again.created).toBe(true);
  expect(await db('audit_log').where({ workflow_id: 'test-unit-unit-lone' }).pluck('id')).toEqual(again.auditIds);
});

it('finds a commit without an audit entry (verify-audit exits 1), and the next write takes it off the branch', async () => {
  const recorded = await readBranch(repo);
  expect(recorded).not.toBeNull();
  // What a process killed between moving the branch and the database commit leaves: a commit nothing recorded.
  const tree = (await gitText(repo, ['rev-parse', `${recorded}^{tree}`])).trim();
  const orphan = (await gitText(repo, ['commit-tree', tree, '-p', recorded!], { input: 'unaudited\n' })).trim();
  await gitText(repo, ['update-ref', 'refs/heads/main', orphan, recorded!]);

  const env = testEnv(platform.database, platform.config.temporal.taskQueuePrefix, { LOG_LEVEL: 'silent' });
  const before = await runScript('scripts/admin.ts', ['verify-audit'], env);
  expect(before.code).toBe(1);
  expect(JSON.parse(before.output)).toMatchObject({ ok: false, unauditedCommits: [{ sha: orphan }] });

  const next = await runCommit(deps, request('unit-3', 'after the orphan'));
  expect(next.created).toBe(true);
  expect((await gitText(repo, ['rev-parse', `${next.sha}^`])).trim()).toBe(recorded);
  expect(await gitText(repo, ['rev-list', 'main'])).not.toContain(orphan);

  // A retry of a recorded write finds its commit in PostgreSQL: the same SHA, nothing new.
  const retried = await runCommit(deps, request('unit-3', 'after the orphan'));
  expect(retried).toMatchObject({ sha: next.sha, created: false, auditIds: next.auditIds });
  expect(await readBranch(repo)).toBe(next.sha);

  const after = await runScript('scripts/admin.ts', ['verify-audit'], env);
  expect([after.code, JSON.parse(after.output)]).toMatchObject([0, { ok: true, unauditedCommits: [] }]);
}, 60_000);

it('commits nothing when a write leaves the tree as it is (no empty commit, no record)', async () => {
  const tip = await readBranch(repo);
  const same = request('unit-1', 'first');
  const again = await runCommit(deps, { ...same, idempotencyKey: 'unit-same', workflowId: 'test-unit-same' });
  expect(again).toMatchObject({ sha: null, created: false });
  const gone = await runCommit(deps, {
    ...request('unit-gone', 'delete a missing file'),
    operation: { type: 'files', writes: [], deletes: ['notes/never-there.md'] },
  });
  expect(gone).toMatchObject({ sha: null, created: false });
  expect(await readBranch(repo)).toBe(tip);
  expect(await platform.services.db('git_commits').whereIn('idempotency_key', ['unit-same', 'unit-gone'])).toEqual([]);
});

it('writes concurrent writes to one repository as one commit each, and a failed pass lands its other writes', async () => {
  const db = platform.services.db;
  const tip = await readBranch(repo);
  await db.raw(`CREATE FUNCTION test_fail_at_commit() RETURNS trigger LANGUAGE plpgsql AS
    $$ BEGIN RAISE EXCEPTION 'injected failure at commit'; END $$`);
  await db.raw(`CREATE CONSTRAINT TRIGGER test_fail_at_commit AFTER INSERT ON audit_log
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.details->>'message' = 'poison')
    EXECUTE FUNCTION test_fail_at_commit()`);
  const keys = Array.from({ length: 12 }, (_, i) => `pass-${i}`);
  let results: PromiseSettledResult<Awaited<ReturnType<typeof runCommit>>>[];
  try {
    const unknown = {
      ...request('pass-unknown', 'unknown'),
      operation: { type: 'nothing' },
    } as unknown as CommitRequest;
    results = await Promise.allSettled([
      ...keys.map((key) => runCommit(deps, request(key, key))),
      runCommit(deps, request('pass-poison', 'poison')),
      runCommit(deps, unknown),
      // The same write twice at once: one commit.
      runCommit(deps, request('pass-0', 'pass-0')),
    ]);
  } finally {
    await db.raw('DROP TRIGGER test_fail_at_commit ON audit_log');
    await db.raw('DROP FUNCTION test_fail_at_commit()');
  }
  const landed = results.slice(0, keys.length).map((r) => (r.status === 'fulfilled' ? r.value : null));
  expect(landed.every((outcome) => outcome?.created && outcome.auditIds.length === 1)).toBe(true);
  expect(results[keys.length]).toMatchObject({ status: 'rejected', reason: { message: /injected failure/ } });
  expect(results[keys.length + 1]).toMatchObject({ status: 'rejected', reason: { type: 'BadTarget' } });
  expect(results[keys.length + 2]).toMatchObject({ status: 'fulfilled', value: { sha: landed[0]!.sha } });

  // One linear history from the old tip: each write its own commit, with its own trailers and audit entry.
  const log = await gitText(repo, ['log', '--format=%H %P%x00%B%x01', `${tip}..main`]);
  const commits = log
    .split('\x01')
    .map((c) => c.trim())
    .filter(Boolean);
  expect(commits).toHaveLength(keys.length);
  const shas = new Set(landed.map((outcome) => outcome!.sha));
  for (const commit of commits) {
    const [sha = ''] = commit.split(' ');
    expect(shas.has(sha)).toBe(true);
    const key = /Idempotency-Key: (\S+)/.exec(commit)?.[1];
    expect(landed[keys.indexOf(key ?? '')]?.sha).toBe(sha);
  }
  const entries = (await db('audit_log')
    .whereIn('git_commit_sha', [...shas])
    .select('git_commit_sha')) as unknown[];
  expect(entries).toHaveLength(keys.length);
  expect(await db('git_commits').where({ idempotency_key: 'pass-poison' })).toEqual([]);
  expect(await unaudited()).toEqual([]);
}, 60_000);

it('writes a pass of several as one pack, and a write failing after it wrote fails the pass, whose others land alone', async () => {
  const db = platform.services.db;
  // Fails in JavaScript after its audit entry was prepared and its commit built: past the point a write can fail alone.
  const failing = failingAtSettle((req) => req.message === 'fails late');
  const packs = () => fs.readdirSync(`${repo}/objects/pack`).filter((name) => name.endsWith('.idx')).length;
  const before = packs();
  const keys = Array.from({ length: 6 }, (_, i) => `late-${i}`);
  // The first write runs alone (loose objects); the others wait for the next pass and run in it together (a pack).
  const together = await Promise.all(keys.map((key) => runCommit(failing, request(key, key))));
  expect(packs()).toBe(before + 1);
  const last = together.at(-1)!.sha!;
  expect(fs.existsSync(`${repo}/objects/${last.slice(0, 2)}/${last.slice(2)}`)).toBe(false);
  expect(await readBranch(repo)).toBe(last);
  await gitText(repo, ['fsck', '--strict', '--no-dangling']);
  // The audit entries of a pass, inserted together, keep the writes' order in the chain.
  const order = (await db('audit_log')
    .whereIn(
      'workflow_id',
      keys.map((key) => `test-unit-${key}`),
    )
    .orderBy('seq')
    .pluck('workflow_id')) as string[];
  expect(order).toEqual(keys.map((key) => `test-unit-${key}`));

  const tip = await readBranch(repo);
  const second = ['late-a', 'late-b', 'late-poison', 'late-c'];
  const results = await Promise.allSettled(
    second.map((key) => runCommit(failing, request(key, key === 'late-poison' ? 'fails late' : key))),
  );
  expect(results[2]).toMatchObject({ status: 'rejected', reason: { message: 'injected failure at settle' } });
  await expectOthersLanded(results, tip, 'late-poison');
}, 60_000);

it('fails a pass whose batched row the database refuses; the others land alone', async () => {
  // The poisoned write's last row fails in PostgreSQL, not in JavaScript: the pass's statement batch (issue 46) holds
  // it until the next write of the pass loads, where it fails the whole pass, whose writes then run again each alone.
  const files = deps.operations.get('files')!;
  const settle = ({ req, batch }: OperationScope<CommitOperation>) => {
    if (req.message === 'poisoned row') batch.add('SELECT 1 / 0', []);
  };
  const poisoned: CommitPathDeps = {
    ...deps,
    operations: new Map([...deps.operations, ['files', { ...files, settle }]]),
  };
  const tip = await readBranch(repo);
  const keys = ['row-lead', 'row-a', 'row-poison', 'row-b'];
  const results = await Promise.allSettled(
    keys.map((key) => runCommit(poisoned, request(key, key === 'row-poison' ? 'poisoned row' : key))),
  );
  expect(results[2]).toMatchObject({
    status: 'rejected',
    reason: { message: expect.stringMatching(/division by zero/) },
  });
  await expectOthersLanded(results, tip, 'row-poison');
}, 60_000);

it('answers the same write twice in one pass with one commit, one record and one audit entry', async () => {
  const db = platform.services.db;
  // The first write runs alone; the other three wait and run as one pass, two of them the same write.
  const [, first, again, other] = await Promise.all([
    runCommit(deps, request('twice-lead', 'lead')),
    runCommit(deps, request('twice', 'twice')),
    runCommit(deps, request('twice', 'twice')),
    runCommit(deps, request('twice-other', 'other')),
  ]);
  expect(first).toMatchObject({ created: true });
  expect(again).toEqual({ ...first, created: false });
  expect(other.created).toBe(true);
  expect(await db('git_commits').where({ idempotency_key: 'twice' }).pluck('sha')).toEqual([first.sha]);
  expect(await db('audit_log').where({ workflow_id: 'test-unit-twice' }).pluck('id')).toEqual(first.auditIds);
});

it('asks for maintenance once the packs of passes crowd the repository, and maintenance merges them', async () => {
  const db = platform.services.db;
  const packs = () => fs.readdirSync(`${repo}/objects/pack`).filter((name) => name.endsWith('.idx')).length;
  const rounds: { packs: number; maintenance: boolean; periodic: boolean }[] = [];
  for (let i = 0; packs() <= 26; i++) {
    // Three at once: the first runs alone (loose objects), the other two in one pass (one pack).
    const keys = [0, 1, 2].map((k) => `crowd-${i}-${k}`);
    const outcomes = await Promise.all(keys.map((key) => runCommit(deps, request(key, key))));
    const seqs = (await db('git_commits').whereIn('idempotency_key', keys).pluck('seq')) as string[];
    rounds.push({
      packs: packs(),
      maintenance: outcomes.some((outcome) => outcome.maintenance === true),
      // The periodic turn (every 500th record) asks as well.
      periodic: seqs.some((seq) => BigInt(seq) % 500n === 0n),
    });
  }
  for (const round of rounds) expect(round.maintenance).toBe(round.packs > 24 || round.periodic);
  await maintainRepositories(platform.services.repositories, null);
  expect(packs()).toBeLessThanOrEqual(2);
  await gitText(repo, ['fsck', '--strict', '--no-dangling']);
});

it('stops a commit whose repository the volume lacks, never starting a fresh one (issue 34)', async () => {
  const tip = await readBranch(repo);
  // What a process whose DATA_DIR is not the shared volume sees: the database names the project, the volume has no
  // repository for it.
  fs.renameSync(repo, `${repo}.elsewhere`);
  try {
    await expect(runCommit(deps, request('unit-missing', 'on the wrong volume'))).rejects.toThrow(RepositoryMissing);
    expect(fs.existsSync(repo)).toBe(false);
    expect(await platform.services.db('git_commits').where({ idempotency_key: 'unit-missing' })).toEqual([]);
  } finally {
    fs.renameSync(`${repo}.elsewhere`, repo);
  }
  // On the right volume the same write continues the one history.
  const next = await runCommit(deps, request('unit-missing', 'on the wrong volume'));
  expect(next.created).toBe(true);
  expect((await gitText(repo, ['rev-parse', `${next.sha}^`])).trim()).toBe(tip);
});

it('finds a recorded, audited commit its branch does not reach (verify-audit exits 1 and names it)', async () => {
  // What two writers that did not exclude each other leave (issue 43, H1): a commit answered `committed`, recorded
  // and audited, then moved off the branch by the other writer.
  await runCommit(deps, request('unit-lost-base', 'kept'));
  const landed = await runCommit(deps, request('unit-lost', 'then lost'));
  const parent = (await gitText(repo, ['rev-parse', `${landed.sha}^`])).trim();
  await gitText(repo, ['update-ref', 'refs/heads/main', parent, landed.sha!]);
  const env = testEnv(platform.database, platform.config.temporal.taskQueuePrefix, { LOG_LEVEL: 'silent' });
  try {
    const report = await runScript('scripts/admin.ts', ['verify-audit'], env);
    expect([report.code, JSON.parse(report.output)]).toMatchObject([
      1,
      { ok: false, unauditedCommits: [], lostCommits: [{ sha: landed.sha, reason: 'not on the branch' }] },
    ]);
  } finally {
    await gitText(repo, ['update-ref', 'refs/heads/main', landed.sha!, parent]);
  }
  const after = await runScript('scripts/admin.ts', ['verify-audit'], env);
  expect([after.code, JSON.parse(after.output)]).toMatchObject([0, { ok: true, lostCommits: [] }]);
}, 60_000);
