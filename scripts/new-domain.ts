import { repoRoot } from '../src/paths';
import { scaffoldDomain } from '../src/runtime/domain-scaffold';

/** `npm run new-domain -- <name>`: a new domain folder from the template, added to the module list. */
const name = process.argv[2] ?? '';
try {
  for (const file of scaffoldDomain(repoRoot(), name)) process.stdout.write(`${file}\n`);
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
