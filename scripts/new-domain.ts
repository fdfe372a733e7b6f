import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../src/paths';
import { scaffoldDomain } from '../src/runtime/domain-scaffold';

/** The generated files a new domain changes, each rewritten by its script once the domain is written. */
const GENERATORS = [
  'scripts/build-workflow-index.ts',
  'scripts/build-commit-operations.ts',
  'scripts/build-openapi-types.ts',
];

/**
 * `npm run new-domain -- <name>`: a new domain folder from the template, added to the module, route and response
 * lists, then the generated lists rewritten (docs/CONTRIBUTING-SPINE.md, "The module shape").
 */
const name = process.argv[2] ?? '';
try {
  for (const file of scaffoldDomain(repoRoot(), name)) process.stdout.write(`${file}\n`);
  for (const script of GENERATORS) {
    execFileSync(process.execPath, ['--import', 'tsx', path.join(repoRoot(), script)], { stdio: 'inherit' });
  }
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
