import { unifiedDiff } from '../../../src/gitops/unified-diff';

describe('unified diff', () => {
  it('prints diff -u hunks with three lines of context', () => {
    const before = Array.from({ length: 12 }, (_, i) => `${i + 1}`).join('\n') + '\n';
    const after = before.replace('3\n', 'X\n').replace('11\n', 'Y\n');
    const diff = unifiedDiff('f.yaml', before, after).split('\n');
    expect(diff.filter((l) => /^(---|\+\+\+|@@)/.test(l))).toEqual([
      '--- a/f.yaml',
      '+++ b/f.yaml',
      '@@ -1,6 +1,6 @@',
      '@@ -8,5 +8,5 @@',
    ]);
    expect(diff.slice(3, 9)).toEqual([' 1', ' 2', '-3', '+X', ' 4', ' 5']);
    expect(unifiedDiff('f.yaml', null, 'x\n')).toBe('--- /dev/null\n+++ b/f.yaml\n@@ -0,0 +1,1 @@\n+x\n');
    expect(unifiedDiff('f.yaml', 'same\n', 'same\n')).toBe('');
  });

  it('gives up on a huge edit within its budget and shows the file replaced whole', () => {
    const a = Array.from({ length: 30_000 }, (_, i) => `line ${i}`).join('\n');
    const b = Array.from({ length: 30_000 }, (_, i) => `other ${i}`).join('\n');
    const started = Date.now();
    const diff = unifiedDiff('big.yaml', a, b);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(diff.split('\n')[2]).toBe('@@ -1,30000 +1,30000 @@');
  });
});
