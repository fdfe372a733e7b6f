/**
 * The bundled command (the bin's launcher of dist/src/validation/cli/bundle.js, compiled from its V8 code cache)
 * answers byte for byte what the unbundled module compiled from src/validation/cli.ts answers: same stdout, stderr and
 * exit status, in every output format, on valid, invalid, unreadable and wrong input.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CORPUS } from './validation/corpus';
import { cli, COMPILED, ensureBuilt } from './helpers/built-cli';

const F = path.join(CORPUS, 'kubeconform', 'fixtures');

beforeAll(ensureBuilt, 300_000);

const cases: [string, string[]][] = [
  ['valid, text', ['--version', '1.29', path.join(F, 'valid.yaml')]],
  ['invalid, json', ['--version', '1.29', '-o', 'json', path.join(F, 'invalid.yaml')]],
  ['invalid, sarif', ['--version', '1.29', '-o', 'sarif', path.join(F, 'invalid.yaml')]],
  ['invalid, junit', ['--version', '1.29', '-o', 'junit', path.join(F, 'invalid.yaml')]],
  ['strict, several files', ['--version', '1.28', '--strict', path.join(F, 'extra_property.yaml'), F]],
  ['missing file', ['--version', '1.29', path.join(F, 'no-such-file.yaml')]],
  ['usage error', ['--version', '1.99', '--no-such-option']],
  ['help', ['--help']],
];

it.each(cases)('%s: the bundle answers exactly as the compiled module', (_name, args) => {
  const bundled = cli(args);
  const compiled = cli(args, { command: COMPILED });
  expect(bundled.stdout).toBe(compiled.stdout);
  expect(bundled.stderr).toBe(compiled.stderr);
  expect(bundled.status).toBe(compiled.status);
});

it('the bundle runs from its code cache, and without it (another build) the same', () => {
  const cache = path.join(path.dirname(COMPILED), 'cli', 'bundle.js.v8cache');
  expect(fs.statSync(cache).size).toBeGreaterThan(10_000);
  const args = ['--version', '1.29', '-o', 'json', path.join(F, 'invalid.yaml')];
  const withCache = cli(args);
  const saved = fs.readFileSync(cache);
  try {
    fs.writeFileSync(cache, Buffer.concat([Buffer.alloc(32), saved.subarray(32)]));
    expect(cli(args)).toEqual(withCache);
  } finally {
    fs.writeFileSync(cache, saved);
  }
});
