/** The offline CLI, spawned the way CI runs it (`tsx src/validation/cli.ts`), on corpus files. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../src/paths';
import { ManifestRejected, type ValidationResponse } from '../../src/validation';
import { CORPUS, engine } from '../unit/validation/corpus';

const F = path.join(CORPUS, 'kubeconform', 'fixtures');

function cli(...args: string[]): { status: number | null; lines: string[]; stderr: string } {
  const tsx = path.join(repoRoot(), 'node_modules', '.bin', 'tsx');
  const run = spawnSync(tsx, ['src/validation/cli.ts', ...args], {
    cwd: repoRoot(),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, lines: run.stdout.split('\n').filter((l) => l !== ''), stderr: run.stderr };
}

type Report = ValidationResponse & { file: string };

function reports(lines: string[]): Report[] {
  return lines.map((l) => JSON.parse(l) as Report);
}

describe('validate CLI', () => {
  it('prints one JSON object per file, the validate response plus `file`, and exits 1 when any file has an error', () => {
    const files = [
      'valid.yaml',
      'invalid.yaml',
      'multi_valid.yaml',
      'missing_kind.yaml',
      'duplicate_property.yaml',
    ].map((f) => path.join(F, f));
    const run = cli('--version', '1.29', '--output', 'json', ...files);
    expect(run.status).toBe(1);
    const out = reports(run.lines);
    expect(out.map((r) => [path.basename(r.file), r.valid])).toEqual([
      ['valid.yaml', true],
      ['invalid.yaml', false],
      ['multi_valid.yaml', true],
      ['missing_kind.yaml', false],
      ['duplicate_property.yaml', false],
    ]);
    for (const r of out) expect(Object.keys(r).sort()).toEqual(['file', 'results', 'summary', 'valid']);
    expect(out[1]?.results).toContainEqual(expect.objectContaining({ severity: 'error', path: 'spec.replicas' }));
    expect(out[4]?.results[0]?.message).toMatch(/DUPLICATE_KEY/);
  });

  it('exits 0 when every file is valid, searching directories, and prints text by default', () => {
    const run = cli('--version', '1.25', path.join(F, 'folder'));
    expect(run.status).toBe(0);
    expect(run.lines.filter((l) => !l.startsWith(' '))).toEqual([
      `${path.join(F, 'folder', 'multi_valid.yaml')}: valid (0 errors, 0 warnings, 10 info)`,
      `${path.join(F, 'folder', 'valid.yaml')}: valid (0 errors, 0 warnings, 5 info)`,
    ]);
  });

  it('takes CRDs with --crd: test_crd.yaml is valid with the sagemaker CRD, not without', () => {
    const crd = path.join(F, 'registry', 'sagemaker.aws.amazon.com_trainingjobs.yaml');
    const withCrd = cli('--version', '1.29', '--crd', crd, '-o', 'json', path.join(F, 'test_crd.yaml'));
    expect(withCrd.status).toBe(0);
    expect(reports(withCrd.lines)[0]).toMatchObject({ valid: true, summary: { errors: 0, warnings: 0, info: 0 } });
    const without = cli('--version', '1.29', '-o', 'json', path.join(F, 'test_crd.yaml'));
    expect(without.status).toBe(1);
  });

  it('the pluto extensions/v1beta1 Deployment fails in 1.32 with an error naming apps/v1', () => {
    const run = cli(
      '--version=1.32',
      '--output=json',
      path.join(CORPUS, 'pluto/e2e/tests/assets/deprecated116/deployment-extensions-v1beta1.yaml'),
    );
    expect(run.status).toBe(1);
    expect(reports(run.lines)[0]?.results.filter((r) => r.severity === 'error')).toEqual([
      expect.objectContaining({ path: 'apiVersion', message: expect.stringContaining('use apps/v1') }),
    ]);
  });

  it.each([
    [['--output', 'json', path.join(F, 'valid.yaml')], /--version is required/],
    [['--version', '1.24', path.join(F, 'valid.yaml')], /--version must be one of 1.25/],
    [['--version', '1.29'], /no manifest file/],
    [['--version', '1.29', '--output', 'xml', path.join(F, 'valid.yaml')], /--output must be json or text/],
    [['--version', '1.29', '--strict', path.join(F, 'valid.yaml')], /unknown option --strict/],
    [['--version', '1.29', path.join(os.tmpdir(), 'no-such-manifest.yaml')], /no such file/],
  ])('usage error %j exits 2', (args, message) => {
    const run = cli(...args);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.lines).toEqual([]);
  });

  it('an invalid --crd file is a usage error', () => {
    const bad = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'crd-')), 'bad.yaml');
    fs.writeFileSync(bad, 'apiVersion: v1\nkind: ConfigMap\n');
    const run = cli('--version', '1.29', '--crd', bad, path.join(F, 'valid.yaml'));
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/invalid CRD: kind must be CustomResourceDefinition/);
  });
});

describe('validate CLI over the whole corpus', () => {
  const manifests = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
      const full = path.join(dir, d.name);
      if (d.isDirectory()) return manifests(full);
      return /\.(ya?ml|json)$/.test(d.name) ? [full] : [];
    });

  it('prints, for every corpus manifest, what the engine computes (whose corpus expectations the other files check)', async () => {
    const files = manifests(CORPUS);
    const run = cli('--version', '1.29', '--output', 'json', ...files);
    const out = reports(run.lines);
    expect(out.map((r) => r.file)).toEqual(files);
    const e = await engine();
    for (const [i, file] of files.entries()) {
      const { file: printed, ...response } = out[i]!;
      let expected: unknown;
      try {
        expected = e.validate(fs.readFileSync(file, 'utf8'), '1.29');
      } catch (err) {
        if (!(err instanceof ManifestRejected)) throw err;
        // A refused manifest is one error result for the whole file in the CLI.
        expected = {
          valid: false,
          results: [{ severity: 'error', message: err.message, path: '', resource: '<manifest>' }],
          summary: { errors: 1, warnings: 0, info: 0 },
        };
      }
      expect({ file: printed, response }).toEqual({ file, response: expected });
    }
  });
});
