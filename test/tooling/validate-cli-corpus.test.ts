/** delivery-validate on every corpus manifest prints what the engine computes (the corpus tests check the engine). */
import fs from 'node:fs';
import { ManifestRejected, type ValidationResponse } from '../../src/validation';
import { CORPUS, engine } from './validation/corpus';
import { cli, ensureBuilt } from './helpers/built-cli';

type Report = ValidationResponse & { file: string };

function manifests(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = `${dir}/${d.name}`;
    if (d.isDirectory()) return manifests(full);
    return /\.(ya?ml|json)$/.test(d.name) ? [full] : [];
  });
}

beforeAll(ensureBuilt, 300_000);

it('precompiled validators, documents streamed one at a time: the same results as engine.validate on each file', async () => {
  const files = manifests(CORPUS);
  const run = cli(['--version', '1.29', '--output', 'json', ...files]);
  const out = run.lines.map((l) => JSON.parse(l) as Report);
  expect(out.map((r) => r.file)).toEqual(files);
  const e = await engine();
  let rejected = 0;
  for (const [i, file] of files.entries()) {
    const { file: printed, ...response } = out[i]!;
    try {
      const expected = e.validate(fs.readFileSync(file, 'utf8'), '1.29', { limits: { maxDocuments: 100_000 } });
      expect({ file: printed, response }).toEqual({ file, response: expected });
    } catch (err) {
      if (!(err instanceof ManifestRejected)) throw err;
      // Refused whole by the route; the CLI refuses the offending document and validates the others.
      rejected++;
      expect(response.results).toContainEqual(expect.objectContaining({ severity: 'error', message: err.message }));
    }
  }
  expect(rejected).toBeLessThan(files.length / 10);
});
