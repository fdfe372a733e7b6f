import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { scaffoldDomain } from '../../src/runtime/domain-scaffold';
import { repoRoot } from '../../src/paths';

/**
 * `npm run new-domain -- probe` (issues 29 and 45) in a copy of this checkout: it writes the domain and its list
 * entries and nothing else, and the copy then passes what `npm test` runs on the files it touched. Running the whole
 * `npm test` here would take ten minutes; these are the tiers and checks that read the scaffolded files, so they are
 * the part of `npm test` the scaffold can change:
 * - the unit tier, which holds every test of the lists a domain joins (module list, route and response lists, action
 *   vocabulary, table ownership, the import boundaries and layers) and loads the route table with the new route;
 * - ESLint and Prettier on the touched files, and `tsc -p tsconfig.json`, which compiles them all (web/ only reads
 *   the regenerated OpenAPI types, which gain a path and change no existing one).
 * The generated-file checks (workflow index, commit operations, OpenAPI types) hold by construction: the scaffold has
 * just rerun their scripts. On a quiet 2-core machine this takes about a minute (scaffold, then the four runs side by
 * side); under load it takes several, hence the long deadlines.
 * The integration tier reads a new domain only through the route table (every recorded body checked against its
 * declared response), which the unit tier loads too; the one exception, docs/authorization.md's generated route
 * table, is not yet rewritten by the scaffold (docs/CONTRIBUTING-SPINE.md, "The module shape").
 */
const run = promisify(execFile);
const ROOT = repoRoot();
/** What the scaffold writes for `probe`, relative to the root: its folders, its list entries, the generated lists. */
const TOUCHED = [
  'api/domain-routes.ts',
  'api/routes/probe/probe-routes.ts',
  'client/openapi-types.generated.ts',
  'schemas/responses/probe-item-list.json',
  'schemas/route-responses.json',
  'src/probe/module.ts',
  'src/probe/probe-service.ts',
  'src/runtime/modules.ts',
];

let copy = '';

/** This checkout's files (committed or not, ignored ones left out) copied to a temp dir, node_modules linked. */
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
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=t@example.test', '-c', 'user.name=t', 'commit', '-qm', 'base');
  return dir;
}

/** Runs `command` in the copy; answers its exit code and output (a failure's output names what failed). */
async function inCopy(command: string, args: string[]): Promise<{ code: number; output: string }> {
  const env = { ...process.env, TEST_BATCHES: '', JEST_WORKER_ID: '' };
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
}, 900_000);

afterAll(() => {
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

describe('a domain scaffolded by `npm run new-domain -- probe`', () => {
  it('touches only its folders, its list entries and the generated lists', () => {
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
      cwd: copy,
      encoding: 'utf8',
    });
    expect(
      status
        .split('\n')
        .filter(Boolean)
        .map((line) => line.slice(3))
        .sort(),
    ).toEqual(TOUCHED);
    expect(() => scaffoldDomain(copy, 'probe')).toThrow('src/probe exists already');
    expect(() => scaffoldDomain(copy, 'Bad Name')).toThrow('invalid domain name');
  });

  it('passes the unit tier and the static checks as generated', async () => {
    const ts = TOUCHED.filter((f) => f.endsWith('.ts'));
    const results = await Promise.all([
      inCopy(bin('jest'), ['--selectProjects', 'unit', '--silent']),
      inCopy(bin('eslint'), ts),
      inCopy(bin('prettier'), ['--check', '--log-level', 'warn', ...TOUCHED]),
      inCopy(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']),
    ]);
    expect(results.filter((r) => r.code !== 0).map((r) => r.output)).toEqual([]);
  }, 900_000);
});
