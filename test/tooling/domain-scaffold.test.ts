import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../src/paths';
import { WORKFLOWS_BUNDLE_ENV } from '../helpers/harness-state';
import { WITHOUT_WEB_BUILD } from '../helpers/web-build';

/**
 * `npm run new-domain -- probe` (issues 29 and 45) in a copy of this checkout: it writes the domain and its list
 * entries and nothing else, and the copy then passes what `npm test` checks of the files it touched. That is the same
 * verdict as `npm test` in the copy, at a fraction of its cost, because the scaffold changes nothing else any check
 * reads:
 * - types: the copy's two TypeScript programs (tsconfig.json, and web/tsconfig.json for the web app and its tests),
 *   so every file that imports a changed list or the regenerated OpenAPI types is compiled again: exactly the errors
 *   `npm run typecheck` reports;
 * - lint: ESLint (typed rules reading those programs) and Prettier (leaving out what .prettierignore names) on the
 *   scaffolded files only, since the files the scaffold did not write are byte for byte those `npm test` already
 *   checks in this checkout;
 * - tests: the unit tests that read the tree rather than a fixed set of imports (UNIT_TESTS: the architecture tests,
 *   among them the migrations' hashes, the tables' owners and the layers, the route table against its declared
 *   responses, the action vocabulary, the declared workflow types, the test batches, the UI routes), and the probe's
 *   own tests with the workflows tier's tests that read every workflow type, fixture folder or patch (PROBE_TESTS),
 *   each run by its tier's harness: the integration one migrates its database with the probe's migration, and both
 *   bundle the probe's workflow with the others. The other scenes and histories of those files replay workflow code
 *   the scaffold does not change. Every other test imports named files the scaffold does not change: the integration
 *   tier reads a new domain only through the route table, which the unit tests load (its tests of every route, the
 *   role matrix, hostile input, HTTP basics and API keys, meet the probe's as one more organization list route with a
 *   viewer floor, the shape of GET /api/v2/teams), and through docs/authorization.md's generated route table, which
 *   the scaffold refreshes and this test compares; no component or end-to-end test reads web/src/routes.tsx.
 * The generated-file checks (workflow index, commit operations, OpenAPI types) hold by construction: the scaffold has
 * just rerun their generators. Figures (docs/CONTRIBUTING-SPINE.md): before this shape, 86 s wall and 140 CPU-seconds
 * on a quiet 2-core machine; see there for today's.
 */
const run = promisify(execFile);
const ROOT = repoRoot();
/**
 * What the scaffold writes for `probe`, relative to the root: its folders, its files elsewhere, its list entries, the
 * generated lists. Its migration is named after the time it is written: MIGRATION.
 */
const TOUCHED = [
  'activities/domain-activities.ts',
  'activities/probe-item.ts',
  'api/domain-routes.ts',
  'api/routes/probe/probe-routes.ts',
  'api/web-ui/ui-routes.ts',
  'client/openapi-types.generated.ts',
  'docs/authorization.md',
  'migrations/hashes.json',
  'schemas/responses/probe-item-list.json',
  'schemas/route-responses.json',
  'src/probe/module.ts',
  'src/probe/probe-repository.ts',
  'src/probe/probe-service.ts',
  'src/probe/probe-workflow-contract.ts',
  'src/runtime/modules.ts',
  'test/integration/probe/probe-items.test.ts',
  'test/unit/temporal/workflow-types.test.ts',
  'test/workflows/fixtures/probe-histories/probe-item.json',
  'test/workflows/probe/probe-item-crash-scene.ts',
  'test/workflows/worker-crash-scenes.ts',
  'web/src/routes.tsx',
  'web/src/views/probe/probe-items-view.tsx',
  'web/test/probe-items-view.test.tsx',
  'workflows/index.ts',
  'workflows/probe-item.ts',
];
const MIGRATION = /^migrations\/\d{14}_probe_items\.ts$/;

/**
 * The unit tests that enumerate modules, routes, responses, actions, tables, migrations, workflows, test files or UI
 * routes (found by grepping test/unit for readdirSync, MODULES, actionRoles, inertRouteTable, workflows/index and the
 * like).
 */
const UNIT_TESTS = [
  'test/unit/architecture/',
  'test/unit/http/response-schemas.test.ts',
  'test/unit/clusters/cluster-rules.test.ts',
  'test/unit/temporal/workflow-types.test.ts',
  'test/unit/testing/batch-plan.test.ts',
  'test/unit/web/ui-routes.test.ts',
];
/**
 * The probe's own tests and the workflows tier's tests that read every workflow type, fixture folder or patch
 * (PROBE_TEST_NAMES picks them out of their files: the other scenes and histories replay the same workflow code as
 * in this checkout), each run by its tier's harness.
 */
const PROBE_TESTS = [
  'test/integration/probe/probe-items.test.ts',
  'test/workflows/worker-crash-families.test.ts',
  'test/workflows/workflow-replay.test.ts',
  'web/test/probe-items-view.test.tsx',
];
const PROBE_TEST_NAMES = 'probe|every workflow type|every fixture folder|every patch';

/**
 * The rows docs/authorization.md gains, cells unpadded (test/integration/iam/authorization-doc.test.ts finds this
 * checkout's document current, so the copy's, with these rows added, is current too).
 */
const PROBE_DOC_ROWS = [
  '+| GET | `/api/v2/probe-items` | organization | `org.probe.read` | viewer |',
  '+| `org.probe.read` | yes | yes | yes | yes |',
];
/** What the test harnesses install on first use (Temporal's binaries, the registry tests' Python), when present. */
const INSTALLED_TOOLS = ['.tools', '.venv-test'];

let copy = '';
/** The files the scaffold changed in the copy, as `git status` lists them. */
let touched: string[] = [];

/**
 * This checkout's files (committed or not, ignored ones left out) copied to a temp dir, node_modules and the tools
 * the harnesses installed linked, so the copy's harnesses install nothing again.
 */
function copyCheckout(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-scaffold-'));
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT })
    .toString()
    .split('\0')
    .filter((f) => f && f !== 'node_modules' && fs.existsSync(path.join(ROOT, f)));
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
  }
  for (const linked of ['node_modules', ...INSTALLED_TOOLS].filter((f) => fs.existsSync(path.join(ROOT, f)))) {
    fs.symlinkSync(path.join(ROOT, linked), path.join(dir, linked));
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=t@example.test', '-c', 'user.name=t', 'commit', '-qm', 'base');
  return dir;
}

/** Runs `command` in the copy; answers its exit code and output (a failure's output names what failed). */
async function inCopy(command: string, args: string[]): Promise<{ code: number; output: string }> {
  // Its harnesses bundle the copy's workflows (not this run's bundle) and build no web app: no test it runs serves one.
  const env = {
    ...process.env,
    TEST_BATCHES: '',
    JEST_WORKER_ID: '',
    [WORKFLOWS_BUNDLE_ENV]: '',
    [WITHOUT_WEB_BUILD]: '1',
  };
  try {
    const { stdout, stderr } = await run(command, args, { cwd: copy, env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const failed = err as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);

beforeAll(async () => {
  copy = copyCheckout();
  const scaffolded = await inCopy('npm', ['run', '--silent', 'new-domain', '--', 'probe']);
  expect(scaffolded.code).toBe(0);
  const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
    cwd: copy,
    encoding: 'utf8',
  });
  touched = status
    .split('\n')
    .filter((line) => line && !INSTALLED_TOOLS.includes(line.slice(3)))
    .map((line) => line.slice(3))
    .sort();
}, 900_000);

afterAll(() => {
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

describe('a domain scaffolded by `npm run new-domain -- probe`', () => {
  it('touches only its folders, its files elsewhere, its list entries and the generated lists', async () => {
    expect(touched.filter((file) => !MIGRATION.test(file))).toEqual(TOUCHED);
    const migrations = fs.readdirSync(path.join(copy, 'migrations')).filter((f) => /^\d{14}_/.test(f));
    // Named after the time it was written: after every migration before it.
    expect(touched.filter((file) => MIGRATION.test(file))).toEqual([`migrations/${migrations.sort().at(-1)}`]);
    const refused = await Promise.all(
      ['probe', 'Bad Name'].map((name) => inCopy('npm', ['run', '--silent', 'new-domain', '--', name])),
    );
    expect(refused.map((r) => [r.code, r.output.trim()])).toEqual([
      [1, 'src/probe exists already'],
      [1, 'invalid domain name Bad Name: use kebab-case'],
    ]);
  });

  it("refreshes docs/authorization.md's generated tables: the probe's route and action rows, nothing else", () => {
    const diff = execFileSync('git', ['diff', '-U0', '--', 'docs/authorization.md'], { cwd: copy, encoding: 'utf8' });
    const changed = diff.split('\n').filter((line) => /^[-+](?![-+])/.test(line));
    expect(changed.map((line) => line.replace(/ +/g, ' '))).toEqual(PROBE_DOC_ROWS);
  });

  it('passes the tree-reading unit tests, its own tests and the static checks as generated', async () => {
    // In band: one process transforms and loads the copy's modules once, where each worker of a parallel run did it
    // again (the unit tests took 24 CPU-s in workers, 15 in band, and no longer).
    const results = await Promise.all([
      inCopy(bin('jest'), ['--runInBand', '--selectProjects', 'unit', '--silent', ...UNIT_TESTS]),
      inCopy(bin('jest'), ['--runInBand', '--silent', '-t', PROBE_TEST_NAMES, ...PROBE_TESTS]),
      inCopy(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/static-checks.ts'), copy, ...touched]),
    ]);
    expect(results.filter((r) => r.code !== 0).map((r) => r.output)).toEqual([]);
    expect(results[0]!.output).toMatch(/Tests: +\d+ passed/);
    expect(results[1]!.output).toContain(`Test Suites: ${PROBE_TESTS.length} passed, ${PROBE_TESTS.length} total`);
  }, 900_000);
});
