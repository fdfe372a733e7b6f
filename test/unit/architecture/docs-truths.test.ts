import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../../src/paths';

/** Issue 32 traps: stale "what is left" sections, and a README pointing at a spec outside the repository. */
const read = (file: string) => fs.readFileSync(path.join(repoRoot(), file), 'utf8');

describe('documentation that tells the truth', () => {
  it('quotes the interface spec from inside the repository', () => {
    expect(read('README.md')).toContain('[docs/interface-spec.txt](docs/interface-spec.txt)');
    expect(read('docs/interface-spec.txt')).toMatch(/^This document covers the whole interface of the service/m);
    const docs = ['README.md', ...fs.readdirSync(path.join(repoRoot(), 'docs')).map((f) => `docs/${f}`)];
    const outside = docs.filter((f) => f.endsWith('.md') && read(f).includes('../shared/spec'));
    expect(outside).toEqual([]);
  });

  it.each([
    ['docs/releases.md', /controller webhook \(issue 12\) replaces/],
    ['docs/policies.md', /promotion and rollback \(next issue\)/],
    ['docs/webhooks.md', /once freezes land/],
    ['docs/authorization.md', /Projects, clusters and tenants are tables of later issues/],
  ])('%s no longer announces what exists', (file, stale) => {
    expect(read(file)).not.toMatch(stale);
  });
});
