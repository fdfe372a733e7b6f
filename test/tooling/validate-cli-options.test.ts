/** delivery-validate's checking options: --strict, --skip, --reject, --ignore-missing-schemas, --crd, --severity. */
import fs from 'node:fs';
import path from 'node:path';
import { CORPUS } from './validation/corpus';
import { cli, ensureBuilt } from './helpers/built-cli';
import { scratchDir } from '../helpers/scratch-dir';

const F = path.join(CORPUS, 'kubeconform', 'fixtures');
const EXTRA = path.join(F, 'extra_property.yaml');
const CUSTOM = path.join(F, 'test_crd.yaml');
const CRD = path.join(F, 'registry', 'sagemaker.aws.amazon.com_trainingjobs.yaml');

interface FileLine {
  valid: boolean;
  results: { severity: string; path: string; message: string; resource: string }[];
}

function report(args: string[]): { status: number | null; file: FileLine } {
  const run = cli(['--version', '1.29', '-o', 'json', ...args]);
  return { status: run.status, file: JSON.parse(run.lines[0] ?? '{}') as FileLine };
}

beforeAll(ensureBuilt, 300_000);

it('--strict makes unknown fields errors', () => {
  // extra_property.yaml is invalid either way since the API-server rules (issue 15): its pod template has no labels,
  // so the selector does not match them. What --strict changes is the unknown field's severity.
  const plain = report([EXTRA]);
  expect(plain.file.results).toContainEqual(
    expect.objectContaining({ severity: 'warning', path: 'spec.replicas', message: 'unknown field "replicas"' }),
  );
  const strict = report(['--strict', EXTRA]);
  expect(strict.status).toBe(1);
  expect(strict.file.results).toContainEqual(
    expect.objectContaining({ severity: 'error', path: 'spec.replicas', message: 'unknown field "replicas"' }),
  );
});

it('--skip leaves kinds unvalidated, --reject makes them errors', () => {
  const invalid = path.join(F, 'invalid.yaml');
  expect(report(['--skip', 'Service,ReplicationController', invalid])).toMatchObject({
    status: 0,
    file: { valid: true, results: [] },
  });
  expect(report(['--reject', 'Secret', '--reject', 'DaemonSet', EXTRA])).toMatchObject({
    status: 1,
    file: { results: [{ severity: 'error', path: 'kind', message: 'kind DaemonSet is rejected (--reject)' }] },
  });
});

it('--ignore-missing-schemas skips kinds no schema describes, but not a built-in kind with a wrong apiVersion', () => {
  expect(report([CUSTOM]).status).toBe(1);
  const skipped = cli(['--version', '1.29', '--ignore-missing-schemas', CUSTOM]);
  expect(skipped.status).toBe(0);
  expect(skipped.stdout).toContain('skipped: no schema for kind TrainingJob (--ignore-missing-schemas)');
  const dir = scratchDir('validate-cli-');
  fs.writeFileSync(path.join(dir, 'd.yaml'), 'apiVersion: apps/v2\nkind: Deployment\nmetadata:\n  name: d\n');
  expect(report(['--ignore-missing-schemas', path.join(dir, 'd.yaml')]).status).toBe(1);
});

it('--crd validates custom resources against the CRD, checked as the upload route checks it', () => {
  expect(report(['--crd', CRD, CUSTOM])).toMatchObject({ status: 0, file: { valid: true, results: [] } });
  const dir = scratchDir('validate-cli-');
  const bad = path.join(dir, 'bad.yaml');
  fs.writeFileSync(bad, 'apiVersion: v1\nkind: ConfigMap\n');
  const run = cli(['--version', '1.29', '--crd', bad, CUSTOM]);
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(/invalid CRD: kind must be CustomResourceDefinition/);
});

it('--severity reports only results at or above the level', () => {
  const valid = path.join(F, 'valid.yaml');
  expect(report([valid]).file.results.map((r) => r.severity)).toEqual(['info', 'info', 'info', 'info', 'info']);
  expect(report(['--severity', 'warning', valid]).file.results).toEqual([]);
  expect(report(['--severity', 'error', path.join(F, 'invalid.yaml')]).file.results.map((r) => r.severity)).toEqual([
    'error',
    'error',
  ]);
});

it('a document refused by the YAML limits is one invalid resource; the others are still validated', () => {
  const lol = `a: &a ["${'lol'.repeat(50)}"]\nb: [${Array(9).fill('*a').join(',')}]\nc: [${Array(9).fill('*a').join(',')}]\n`;
  const input = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  k: v\n---\n${lol}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y\n`;
  const run = cli(['--version', '1.29', '-o', 'json', '-'], { input });
  expect(run.status).toBe(1);
  const file = JSON.parse(run.lines[0] ?? '{}') as FileLine;
  expect(file.results).toEqual([
    {
      severity: 'error',
      message: 'manifest uses more than 10 YAML aliases',
      path: '',
      resource: '<unknown>/<document 2>',
    },
  ]);
  expect(run.stderr).toContain('3 resources (2 valid, 1 invalid');
});
