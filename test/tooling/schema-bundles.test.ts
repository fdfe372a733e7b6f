/** The committed schema bundles are exactly what the build script makes of the committed source data. */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { repoRoot } from '../../src/paths';
import { SUPPORTED_K8S_VERSIONS } from '../../src/validation';
import { buildBundles } from '../../src/validation/bundle/build-bundles';

const DIR = path.join(repoRoot(), 'schemas', 'k8s');

describe('bundles', () => {
  it('are what scripts/build-k8s-schemas.ts makes of schemas/k8s/source', () => {
    const { bundles, conflicts } = buildBundles(fs.readFileSync(path.join(DIR, 'source', 'openapi-v3.tar.gz')), 'x');
    expect(conflicts).toEqual([]);
    expect(bundles.map((b) => b.kubernetesVersion)).toEqual([...SUPPORTED_K8S_VERSIONS]);
    for (const bundle of bundles) {
      const committed: unknown = JSON.parse(
        zlib.gunzipSync(fs.readFileSync(path.join(DIR, `${bundle.kubernetesVersion}.json.gz`))).toString(),
      );
      expect(committed).toEqual({ ...bundle, source: expect.any(String) });
    }
  });

  it('stay small enough to commit', () => {
    const total = SUPPORTED_K8S_VERSIONS.reduce((sum, v) => sum + fs.statSync(path.join(DIR, `${v}.json.gz`)).size, 0);
    expect(total).toBeLessThan(3 * 1024 * 1024);
  });
});
