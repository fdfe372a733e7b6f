/**
 * Builds the per-version Kubernetes schema bundles under schemas/k8s/ (run: `npm run build:schemas`).
 *
 * Source: schemas/k8s/source/openapi-v3.tar.gz (a copy of the shared data), Kubernetes' own published OpenAPI v3
 * documents for 1.25..1.32,
 * one file per group-version, taken from the release branches as collected by kubernetes-sigs/kubectl-validate
 * (Apache-2.0); see schemas/k8s/source/README.md. The other form in that folder (JSON Schema definitions from
 * willthames/kubernetes-validate) holds the same facts without defaults or REST paths, so it is not used.
 *
 * Output, one file per minor: schemas/k8s/<minor>.json.gz = { kubernetesVersion, source, resources[], definitions{} }.
 * `resources` lists every kind with a REST path in its own group-version (with its scope); `definitions` are the
 * component schemas, normalized mechanically (see src/validation/bundle/normalize-openapi.ts) with descriptions
 * and defaults kept for the schema browser. Nothing is added here: the enums and required fields the API
 * server enforces in code live in schemas/k8s/constraints.yaml, deprecations in schemas/k8s/deprecations.yaml,
 * both curated by hand and applied at load time.
 *
 * The output is deterministic (sorted keys, gzip without timestamps), so re-running it on the same data
 * leaves git clean.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { repoRoot } from '../src/paths';
import { buildBundles } from '../src/validation/bundle/build-bundles';

const SOURCE =
  'Kubernetes OpenAPI v3 (release branches, via kubernetes-sigs/kubectl-validate, Apache-2.0): ' +
  '../shared/data/k8s/openapi-v3.tar.gz';

function main(): void {
  const root = repoRoot();
  const input = path.resolve(root, process.argv[2] ?? 'schemas/k8s/source/openapi-v3.tar.gz');
  const outDir = path.join(root, 'schemas', 'k8s');
  const { bundles, conflicts } = buildBundles(fs.readFileSync(input), SOURCE);
  if (conflicts.length > 0) {
    // Same definition name, different content across group-versions of one release would make refs ambiguous.
    throw new Error(`conflicting definitions: ${conflicts.join(', ')}`);
  }
  fs.mkdirSync(outDir, { recursive: true });
  for (const bundle of bundles) {
    const json = Buffer.from(JSON.stringify(bundle));
    const gz = zlib.gzipSync(json, { level: 9 });
    const file = path.join(outDir, `${bundle.kubernetesVersion}.json.gz`);
    fs.writeFileSync(file, gz);
    const kinds = bundle.resources.length;
    const defs = Object.keys(bundle.definitions).length;
    process.stdout.write(`${path.relative(root, file)}: ${kinds} kinds, ${defs} definitions, ${gz.length} bytes\n`);
  }
}

main();
