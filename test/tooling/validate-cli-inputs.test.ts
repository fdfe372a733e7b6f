/** delivery-validate's inputs and exit statuses, spawned as CI runs it (compiled, `node dist/...`). */
import fs from 'node:fs';
import path from 'node:path';
import { CORPUS } from './validation/corpus';
import { cli, ensureBuilt } from './helpers/built-cli';
import { scratchDir } from '../helpers/scratch-dir';

const F = path.join(CORPUS, 'kubeconform', 'fixtures');
const VALID = path.join(F, 'valid.yaml');
const INVALID = path.join(F, 'invalid.yaml');

interface FileLine {
  file: string;
  valid: boolean;
  results: { severity: string; path: string; message: string; resource: string }[];
  summary: { errors: number; warnings: number; info: number };
  unreadable?: string;
}

const json = (lines: string[]): FileLine[] => lines.map((l) => JSON.parse(l) as FileLine);

function tmpDir(): string {
  return scratchDir('validate-cli-');
}

beforeAll(ensureBuilt, 300_000);

describe('inputs', () => {
  it('validates several files at once, in the order given', () => {
    const run = cli(['--version', '1.29', '-o', 'json', INVALID, VALID]);
    expect(run.status).toBe(1);
    expect(json(run.lines).map((r) => [r.file, r.valid])).toEqual([
      [INVALID, false],
      [VALID, true],
    ]);
  });

  it('searches directories recursively for .yaml, .yml and .json, in a stable order', () => {
    const dir = tmpDir();
    fs.mkdirSync(path.join(dir, 'b', 'c'), { recursive: true });
    fs.copyFileSync(VALID, path.join(dir, 'b', 'c', 'deep.yml'));
    fs.copyFileSync(VALID, path.join(dir, 'a.yaml'));
    fs.writeFileSync(path.join(dir, 'b', 'list.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [] }));
    fs.writeFileSync(path.join(dir, 'b', 'notes.txt'), 'not a manifest');
    const run = cli(['--version', '1.29', '-o', 'json', dir]);
    expect(run.status).toBe(0);
    expect(json(run.lines).map((r) => path.relative(dir, r.file))).toEqual(['a.yaml', 'b/c/deep.yml', 'b/list.json']);
  });

  it('reads standard input for -, between files', () => {
    const run = cli(['--version', '1.29', '-o', 'json', VALID, '-', INVALID], {
      input: fs.readFileSync(INVALID, 'utf8'),
    });
    expect(run.status).toBe(1);
    expect(json(run.lines).map((r) => [r.file, r.valid])).toEqual([
      [VALID, true],
      ['<stdin>', false],
      [INVALID, false],
    ]);
  });

  it('streams a long stdin of many documents, results in input order with the line each document starts at', () => {
    const doc = (i: number): string =>
      `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\ndata:\n  k: "${i}"\n`;
    const input =
      Array.from({ length: 3000 }, (_, i) => doc(i)).join('') + '---\napiVersion: v1\nkind: ConfigMap\nmetadata: [\n';
    const run = cli(['--version', '1.29', '-o', 'tap', '-'], { input });
    expect(run.status).toBe(1);
    const points = run.lines.filter((l) => /^(not )?ok /.test(l));
    expect(points).toHaveLength(3001);
    expect(points[2999]).toBe('ok 3000 - <stdin>: ConfigMap/cm-2999');
    expect(points[3000]).toBe('not ok 3001 - <stdin>: <unknown>/<document 3001>');
    expect(run.stdout).toContain(`line: ${3000 * 7 + 1}`);
  });

  it('the same results in the same order with --workers', () => {
    const args = ['--version', '1.29', '-o', 'json', path.join(CORPUS, 'kubeconform'), VALID, '-'];
    const input = fs.readFileSync(INVALID, 'utf8');
    const one = cli(args, { input });
    const four = cli(['--workers', '4', ...args], { input });
    expect(one.lines.length).toBeGreaterThan(20);
    expect(four.stdout).toBe(one.stdout);
    expect(four.status).toBe(one.status);
  });
});

describe('version', () => {
  it('defaults to the newest release without a config file', () => {
    const run = cli([path.join(F, 'test_crd.yaml')], { cwd: tmpDir() });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('Kubernetes 1.32');
  });

  it('comes from .delivery-validate.json in the working directory, or --config, and the command line wins', () => {
    const dir = tmpDir();
    fs.writeFileSync(path.join(dir, '.delivery-validate.json'), JSON.stringify({ version: '1.25', severity: 'error' }));
    const crd = path.join(F, 'test_crd.yaml');
    const fromFile = cli([crd], { cwd: dir });
    expect(fromFile.stdout).toContain('Kubernetes 1.25');
    expect(fromFile.stdout).not.toMatch(/^\s+info /m);
    expect(cli(['--version', '1.30', crd], { cwd: dir }).stdout).toContain('Kubernetes 1.30');
    const other = path.join(dir, 'other.json');
    fs.writeFileSync(other, JSON.stringify({ version: '1.27' }));
    expect(cli(['--config', other, crd], { cwd: dir }).stdout).toContain('Kubernetes 1.27');
  });
});

describe('exit statuses', () => {
  it('0 when every resource is valid, 1 when one is not', () => {
    expect(cli(['--version', '1.29', VALID]).status).toBe(0);
    expect(cli(['--version', '1.29', VALID, INVALID]).status).toBe(1);
  });

  it.each([
    [['--version', '1.24', VALID], /--version must be one of 1.25/],
    [['--version', '1.29'], /no manifest file/],
    [['--version', '1.29', '--output', 'xml', VALID], /--output must be one of text, json, junit, tap, sarif/],
    [['--version', '1.29', '--severity', 'fatal', VALID], /--severity must be one of error, warning, info/],
    [['--version', '1.29', '--workers', '0', VALID], /--workers must be an integer/],
    [['--version', '1.29', '--frobnicate', VALID], /unknown option --frobnicate/],
    [['--version', '1.29', '-', '-'], /standard input\) can be given once/],
  ])('2 for a usage error: %j', (args, message) => {
    const run = cli(args);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
  });

  it('2 for a config file that is not valid', () => {
    const dir = tmpDir();
    fs.writeFileSync(path.join(dir, '.delivery-validate.json'), '{"version": ');
    expect(cli([VALID], { cwd: dir })).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/\.delivery-validate\.json/),
    });
    fs.writeFileSync(path.join(dir, '.delivery-validate.json'), '{"colour": true}');
    expect(cli([VALID], { cwd: dir })).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/unknown option --colour/),
    });
  });

  it('3 when an input cannot be read, after reporting every other one', () => {
    const dir = tmpDir();
    fs.copyFileSync(INVALID, path.join(dir, 'a.yaml'));
    fs.symlinkSync(path.join(dir, 'gone.yaml'), path.join(dir, 'b.yaml'));
    const run = cli(['--version', '1.29', '-o', 'json', dir, path.join(dir, 'missing.yaml')]);
    expect(run.status).toBe(3);
    expect(json(run.lines).map((r) => [path.basename(r.file), r.valid, r.unreadable])).toEqual([
      ['a.yaml', false, undefined],
      ['b.yaml', false, 'no such file or directory'],
      ['missing.yaml', false, 'no such file or directory'],
    ]);
    expect(run.stderr).toMatch(/Summary: 3 files, 2 unreadable/);
    expect(cli(['--version', '1.29', '--crd', path.join(dir, 'missing.yaml'), VALID]).status).toBe(3);
  });
});
