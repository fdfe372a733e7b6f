import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../../src/paths';

/**
 * scripts/gate-mutations.sh mutates the four gates (audit entry, governance gate, approval quorum, webhook signature)
 * and shows the fast tiers fail on each. It finds each gate by its text: when the code moves, this test says so,
 * before the script is run and finds nothing to mutate.
 */
const script = fs.readFileSync(path.join(repoRoot(), 'scripts/gate-mutations.sh'), 'utf8');
const mutations = [...script.matchAll(/^\s+(\w+)\) echo "([^|"]+)\|([^|"]+)\|([^"]+)" ;;$/gm)].map((m) => ({
  name: m[1]!,
  file: m[2]!,
  from: m[3]!,
  to: m[4]!,
}));

describe('the gate mutations script', () => {
  it('mutates the four gates', () => {
    expect(mutations.map((m) => m.name)).toEqual(['audit', 'governance', 'approval', 'signature']);
  });

  it.each(mutations)('$name: the text it mutates is in $file, once', ({ file, from, to }) => {
    const text = fs.readFileSync(path.join(repoRoot(), file), 'utf8');
    expect(text.split(from)).toHaveLength(2);
    expect(to).not.toBe(from);
  });
});
